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

    /// The raw calls in `text`, as `line: code`; comment lines are skipped. (A scan of
    /// identifiers, not an NSRegularExpression: LeakSanitizer finds Foundation's regular
    /// expressions with look-behind leaking on Linux.)
    static func rawCalls(in text: String) -> [String] {
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = String(line)
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if callsRaw(code) {
                found.append("\(index + 1): \(code.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// Whether `code` calls one of `calls` as a plain name (not through a member, not in its
    /// declaration) or one of `qualifiedCalls` as `Glibc.name`, each followed by `(`.
    static func callsRaw(_ code: String) -> Bool {
        let scalars = Array(code.unicodeScalars)
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || CharacterSet.alphanumerics.contains(scalar)
        }
        func identifier(endingAt end: Int) -> String {
            var start = end
            while start > 0, isIdentifier(scalars[start - 1]) { start -= 1 }
            return String(String.UnicodeScalarView(scalars[start..<end]))
        }
        var index = 0
        while index < scalars.count {
            guard isIdentifier(scalars[index]) else { index += 1; continue }
            var end = index
            while end < scalars.count, isIdentifier(scalars[end]) { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[index..<end]))
            var next = end
            while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" { next += 1 }
            if next < scalars.count, scalars[next] == "(" {
                if index > 0, scalars[index - 1] == "." {
                    if qualifiedCalls.contains(name), identifier(endingAt: index - 1) == "Glibc" { return true }
                } else if calls.contains(name), !String(String.UnicodeScalarView(scalars[..<index])).hasSuffix("func ") {
                    return true
                }
            }
            index = end
        }
        return false
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

    @Test("No file in Sources/ writes a file with Foundation's atomic option: SystemCalls' DurableFile is the one crash-safe writer")
    func noFoundationAtomicWrites() throws {
        let sources = PackagePaths.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var offenders: [String] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && (line.contains("options: .atomic") || line.contains("atomically: true")) {
                offenders.append("\(url.path.dropFirst(PackagePaths.root.path.count + 1)):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "Write these through DurableFile (Sources/SystemCalls/DurableFile.swift, docs/system-calls.md): Foundation's atomic write does not fsync.\n\(offenders.joined(separator: "\n"))")
    }
}
