public import Foundation

extension CommandRunner {
    /// coreutils' SHA-256 of the file (lowercase hex, as the daemon and the uploader record an
    /// archive's); nil when `sha256sum` fails. A digest nobody here wrote, to check ours against.
    public static func sha256sum(_ url: URL) throws -> String? {
        let output = try runBlocking(URL(fileURLWithPath: "/usr/bin/sha256sum"), [url.path])
        guard output.status == 0 else { return nil }
        return output.standardOutput.split(separator: " ").first.map(String.init)
    }
}
