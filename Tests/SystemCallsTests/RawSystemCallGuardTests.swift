import Foundation
import Testing
import TestSupport

/// Keeps the file and time system calls in `Sources/SystemCalls` (docs/system-calls.md): a
/// direct call anywhere else in Sources/ fails this test with its file and line.
@Suite("System calls: no raw call outside SystemCalls")
struct RawSystemCallGuardTests {
    /// Calls only `Syscalls` may make. A call through a member (`Syscalls.fsync(`,
    /// `Task.sleep(`) or a declaration (`func rename(`) is not a raw call.
    static let calls = [
        "fsync", "fdatasync", "ftruncate", "rename", "renameat", "lstat", "fstat", "stat", "statvfs", "fstatvfs",
        "unlink", "unlinkat", "mkdir", "mkdirat", "chmod", "fchmod", "nanosleep", "usleep", "clock_gettime",
    ]

    /// Calls whose plain names are too common to search for (`write(`, `open(` are also
    /// methods), found when written as `Glibc.write(`.
    static let qualifiedCalls = calls + ["open", "close", "read", "write", "pread", "pwrite", "lseek"]

    static let pattern = try! NSRegularExpression(
        pattern: "(?<![\\w.])(?<!func )(\(calls.joined(separator: "|")))\\s*\\("
            + "|\\bGlibc\\.(\(qualifiedCalls.joined(separator: "|")))\\s*\\(")

    /// The raw calls in `text`, as `line: code`; comment lines are skipped.
    static func rawCalls(in text: String) -> [String] {
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = String(line)
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            let range = NSRange(code.startIndex..., in: code)
            if pattern.firstMatch(in: code, range: range) != nil {
                found.append("\(index + 1): \(code.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test("The pattern finds raw calls and lets wrapped ones, declarations and comments pass", arguments: [
        ("while fsync(descriptor.rawValue) != 0 {", true),
        ("guard Glibc.rename(temporary.path, url.path) == 0 else {", true),
        ("guard lstat(path, &status) == 0 else {", true),
        ("var status = stat()", true),
        ("usleep(10_000)", true),
        ("clock_gettime(clock, &time)", true),
        ("_ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }", true),
        ("try Syscalls.fsync(descriptor, path: path)", false),
        ("try await Task.sleep(for: .seconds(1))", false),
        ("public static func rename(_ source: String, to destination: String) {", false),
        ("/// Flushes, fsyncs and closes the file; fsync(2) is retried on EINTR.", false),
        ("let renamed = renameFile(at: url)", false),
        ("let count = try descriptor.write(bytes)", false),
        ("Glibc.exit(1)", false),
    ])
    func recognizes(_ line: String, isRaw: Bool) {
        #expect(Self.rawCalls(in: line).isEmpty == !isRaw)
    }

    @Test("No file in Sources/ outside Sources/SystemCalls makes a file or time system call directly")
    func noRawCalls() throws {
        let sources = PackagePaths.root.appendingPathComponent("Sources")
        let wrappers = sources.appendingPathComponent("SystemCalls").path + "/"
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        var offenders: [String] = []
        for case let url as URL in files where url.pathExtension == "swift" && !url.path.hasPrefix(wrappers) {
            checked += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            let relative = String(url.path.dropFirst(PackagePaths.root.path.count + 1))
            offenders += Self.rawCalls(in: text).map { "\(relative):\($0)" }
        }
        #expect(checked > 100, "Sources/ was not found or is nearly empty at \(sources.path).")
        #expect(offenders.isEmpty, "Call these through Syscalls (Sources/SystemCalls/Syscalls.swift, docs/system-calls.md):\n\(offenders.joined(separator: "\n"))")
    }
}
