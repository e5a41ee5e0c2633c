public import Foundation

/// Where the package and its build products are, for tests.
public enum PackagePaths {
    /// The package root, derived from this file's path (`Tests/TestSupport/PackagePaths.swift`).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `activetaskctl`, or nil when it was not built.
    public static let activetaskctl: URL? = builtExecutable(named: "activetaskctl")

    /// The built executable `name` beside the test binary in the build directory, or nil when it
    /// was not built. The search walks up from the running test binary (Linux: `/proc/self/exe`;
    /// elsewhere the `.xctest` bundle or `argv[0]`) because the binary may sit inside an
    /// `.xctest` bundle directory.
    ///
    /// `ACTIVETASK_TEST_BINARIES` names another directory to take the package's executables from
    /// first: scripts/release-check.sh runs the daemon tests against the install build that way.
    public static func builtExecutable(named name: String) -> URL? {
        if let directory = ProcessInfo.processInfo.environment["ACTIVETASK_TEST_BINARIES"], !directory.isEmpty {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        var starts = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()]
        starts += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath())
        for start in starts {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" && !directory.path.isEmpty {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }
}
