public import Foundation
import Glibc

/// Writes umockdev testbeds (device descriptions and read scripts) and runs the built
/// `activetaskctl` under `umockdev-run`, so libiio's real `local:` backend reads emulated
/// devices. libiio's sysfs and /dev paths are fixed, which is why the product runs as a
/// subprocess here.
public struct UmockdevTestbed: Sendable {
    public let directory: URL
    public var devices: [EmulatedIIODevice] = []
    /// Per device number: the chunks its node delivers, each after a delay in milliseconds.
    public var chunks: [Int: [(delay: Int, bytes: [UInt8])]] = [:]

    public init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("motion-testbed-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// True when umockdev-run is installed (scripts/setup.sh installs it).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run") }

    /// True when iiod and unshare are installed and we are root (for private namespaces).
    public static var canRunIIOD: Bool {
        isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/sbin/iiod") && getuid() == 0
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    }

    /// The built `activetaskctl`; when it was not built, a name that fails to run.
    public static var activetaskctl: String { PackagePaths.activetaskctl?.path ?? "activetaskctl-not-built" }

    public mutating func add(_ device: EmulatedIIODevice, scans: [[UInt8]], scansPerChunk: Int = 1, delay: Int = 10) {
        devices.append(device)
        var list: [(delay: Int, bytes: [UInt8])] = []
        var index = 0
        while index < scans.count {
            let chunk = scans[index..<min(index + scansPerChunk, scans.count)].flatMap { $0 }
            // umockdev's script parser skips spaces before a chunk's data, so a chunk that
            // starts with byte 0x20 joins the previous one.
            if chunk.first == 0x20 {
                precondition(!list.isEmpty, "The first scan of an emulated stream must not start with byte 0x20 (umockdev drops it).")
                list[list.count - 1].bytes += chunk
            } else {
                list.append((delay, chunk))
            }
            index += scansPerChunk
        }
        chunks[device.number] = list
    }

    /// umockdev's script escaping: bytes below 32 as `^` + (byte + 64), `^` as "^`".
    public static func scriptLine(delay: Int, bytes: [UInt8]) -> [UInt8] {
        var line = Array("r \(delay) ".utf8)
        for byte in bytes {
            if byte < 32 {
                line += [UInt8(ascii: "^"), byte + 64]
            } else if byte == UInt8(ascii: "^") {
                line += [UInt8(ascii: "^"), UInt8(ascii: "`")]
            } else {
                line.append(byte)
            }
        }
        line.append(0x0A)
        return line
    }

    /// Writes the files and returns umockdev-run's arguments before `--`.
    public func write() throws -> [String] {
        let description = devices.map { $0.umockdevRecord() }.joined(separator: "\n")
        let descriptionURL = directory.appendingPathComponent("devices.umockdev")
        try description.write(to: descriptionURL, atomically: true, encoding: .utf8)
        var arguments = ["-d", descriptionURL.path]
        for device in devices {
            let script = (chunks[device.number] ?? []).flatMap { Self.scriptLine(delay: $0.delay, bytes: $0.bytes) }
            let scriptURL = directory.appendingPathComponent("device\(device.number).script")
            try Data(script).write(to: scriptURL)
            arguments += ["-s", "\(device.nodePath)=\(scriptURL.path)"]
        }
        return arguments
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `shellCommand` (sh -c) under umockdev-run with this testbed; `$CTL` is the built
    /// activetaskctl and `$UMOCKDEV_DIR` the testbed's root.
    /// Runs `shellCommand` under umockdev-run (inside `wrapper` when given), waiting for it on a
    /// thread of its own.
    public func run(_ shellCommand: String, wrapper: [String] = [], timeout: Double = 60) async throws -> Output {
        let testbed = self
        return try await onOwnThread { try testbed.runBlocking(shellCommand, wrapper: wrapper, timeout: timeout) }
    }

    private func runBlocking(_ shellCommand: String, wrapper: [String], timeout: Double) throws -> Output {
        let umockdevArguments = try write()
        let arguments = ["/usr/bin/umockdev-run"] + umockdevArguments + ["--", "sh", "-c", shellCommand]
        var environment = ProcessInfo.processInfo.environment
        environment["CTL"] = Self.activetaskctl
        let stdoutURL = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let stderrURL = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        // Spawned and reaped here, not with Foundation's Process (see CommandRunner).
        let pid = try ChildSpawn.spawn(wrapper + arguments, environment: environment,
                                       standardOutput: stdoutURL.path, standardError: stderrURL.path)
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var reaped = false
        while Date() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) { reaped = true; break }
            usleep(20_000)
        }
        if !reaped {
            kill(pid, SIGTERM)  // only the process this test started
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return Output(
            status: ChildSpawn.exitStatus(status),
            stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
    }

    /// A path in the testbed's directory for output files.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The motion file at `path` as JSON objects.
    public static func records(at path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The last JSON object printed on `text` (activetaskctl record prints the result last).
    public static func lastJSONObject(in text: String) -> [String: Any]? {
        guard let start = text.range(of: "{\n", options: .backwards) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text[start.lowerBound...].utf8)) as? [String: Any]
    }
}
