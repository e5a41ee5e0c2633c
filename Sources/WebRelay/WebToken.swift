import Foundation

/// The token `activetask-web` makes at each start and writes, alone, into a file only its user
/// may read (mode 0600), and into the launch page beside it (`WebLaunchPage`) that the kiosk
/// opens (docs/kiosk.md, "Security").
public enum WebToken {
    /// 32 random bytes from the system's generator, in hexadecimal.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Writes `token` to `path`, replacing the file, created with mode 0600.
    public static func write(_ token: String, to path: String) throws(WebRelayError) {
        try writePrivate(Data((token + "\n").utf8), to: path)
    }

    /// Writes `contents` to `path`, replacing the file, created with mode 0600 (only this user
    /// may read it).
    static func writePrivate(_ contents: Data, to path: String) throws(WebRelayError) {
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
        } catch {
            throw .tokenFile(path, "\(error.localizedDescription)")
        }
        guard manager.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o600]) else {
            throw .tokenFile(path, "the file could not be created")
        }
        // createFile may write through a temporary file: make sure of the mode it ended with.
        do {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw .tokenFile(path, "\(error.localizedDescription)")
        }
    }
}
