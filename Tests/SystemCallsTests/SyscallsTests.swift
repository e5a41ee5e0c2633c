import Foundation
import Glibc
import SystemCalls
import SystemPackage
import Testing
import TestSupport

/// Each wrapper on real files in a scratch directory: what succeeds does what the call does,
/// and what fails throws a `SystemCallError` naming the call, the path and the kernel's reason.
@Suite("System calls: one wrapper per call")
struct SyscallsTests {
    /// What a case expects of its wrapper.
    enum Expectation: Sendable {
        case succeeds
        case fails(call: String, errno: Errno)
    }

    /// One wrapper exercised in a fresh directory (`run` gets its path; it checks its own
    /// success with `#expect`).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: Expectation
        var run: @Sendable (String) throws -> Void
        var testDescription: String { name }
    }

    static func file(_ directory: String, _ text: String = "0123456789") -> String {
        let path = directory + "/file"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static let cases: [Case] = [
        Case(name: "fsync of an open file", expected: .succeeds) { directory in
            let path = SyscallsTests.file(directory)
            let descriptor = try Syscalls.open(FilePath(path), .readWrite)
            defer { try? Syscalls.close(descriptor) }
            try Syscalls.fsync(descriptor, path: path)
        },
        Case(name: "fsync of a directory", expected: .succeeds) { directory in
            let descriptor = try Syscalls.open(FilePath(directory), .readOnly, options: [.directory])
            defer { try? Syscalls.close(descriptor) }
            try Syscalls.fsync(descriptor, path: directory)
        },
        Case(name: "fsync of a closed descriptor", expected: .fails(call: "fsync", errno: .badFileDescriptor)) { directory in
            let path = SyscallsTests.file(directory)
            let descriptor = try Syscalls.open(FilePath(path), .readWrite)
            try Syscalls.close(descriptor)
            try Syscalls.fsync(descriptor, path: path)
        },
        Case(name: "open of a missing file", expected: .fails(call: "open", errno: .noSuchFileOrDirectory)) { directory in
            _ = try Syscalls.open(FilePath(directory + "/missing"), .readOnly)
        },
        Case(name: "write, pwrite, seek, read and pread", expected: .succeeds) { directory in
            let path = directory + "/written"
            let descriptor = try Syscalls.open(FilePath(path), .readWrite, options: [.create, .truncate], permissions: .ownerReadWrite)
            defer { try? Syscalls.close(descriptor) }
            let written = try Array("hello world".utf8).withUnsafeBytes { bytes in
                try Syscalls.writeAll(descriptor, bytes, path: path)
            }
            #expect(written == 11)
            _ = try Array("W".utf8).withUnsafeBytes { bytes in try Syscalls.writeAll(descriptor, toAbsoluteOffset: 6, bytes, path: path) }
            #expect(try Syscalls.seek(descriptor, offset: 0, from: .end, path: path) == 11)
            #expect(try Syscalls.seek(descriptor, offset: 0, from: .start, path: path) == 0)
            var whole = [UInt8](repeating: 0, count: 32)
            let count = try whole.withUnsafeMutableBytes { try Syscalls.read(descriptor, into: $0, path: path) }
            #expect(String(decoding: whole[..<count], as: UTF8.self) == "hello World")
            var part = [UInt8](repeating: 0, count: 5)
            let partCount = try part.withUnsafeMutableBytes { try Syscalls.read(descriptor, fromAbsoluteOffset: 6, into: $0, path: path) }
            #expect(String(decoding: part[..<partCount], as: UTF8.self) == "World")
        },
        Case(name: "ftruncate cuts the file", expected: .succeeds) { directory in
            let path = SyscallsTests.file(directory)
            let descriptor = try Syscalls.open(FilePath(path), .readWrite)
            defer { try? Syscalls.close(descriptor) }
            try Syscalls.ftruncate(descriptor, to: 4, path: path)
            #expect(try Syscalls.fstat(descriptor, path: path).st_size == 4)
        },
        Case(name: "ftruncate of a read-only descriptor", expected: .fails(call: "ftruncate", errno: .invalidArgument)) { directory in
            let path = SyscallsTests.file(directory)
            let descriptor = try Syscalls.open(FilePath(path), .readOnly)
            defer { try? Syscalls.close(descriptor) }
            try Syscalls.ftruncate(descriptor, to: 4, path: path)
        },
        Case(name: "rename replaces the destination", expected: .succeeds) { directory in
            let source = SyscallsTests.file(directory, "new")
            let destination = directory + "/destination"
            _ = FileManager.default.createFile(atPath: destination, contents: Data("old".utf8))
            try Syscalls.rename(source, to: destination)
            #expect(!FileManager.default.fileExists(atPath: source))
            #expect(FileManager.default.contents(atPath: destination) == Data("new".utf8))
        },
        Case(name: "rename of a missing file", expected: .fails(call: "rename", errno: .noSuchFileOrDirectory)) { directory in
            try Syscalls.rename(directory + "/missing", to: directory + "/destination")
        },
        Case(name: "lstat of a file", expected: .succeeds) { directory in
            let status = try Syscalls.lstat(SyscallsTests.file(directory))
            #expect(status.st_mode & S_IFMT == S_IFREG)
            #expect(status.st_size == 10)
        },
        Case(name: "lstat of a symbolic link does not follow it", expected: .succeeds) { directory in
            let link = directory + "/link"
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: SyscallsTests.file(directory))
            let status = try Syscalls.lstat(link)
            #expect(status.st_mode & S_IFMT == S_IFLNK)
        },
        Case(name: "lstat of a missing path", expected: .fails(call: "lstat", errno: .noSuchFileOrDirectory)) { directory in
            _ = try Syscalls.lstat(directory + "/missing")
        },
        Case(name: "access of a missing path", expected: .fails(call: "access", errno: .noSuchFileOrDirectory)) { directory in
            try Syscalls.access(directory + "/missing", F_OK)
        },
        Case(name: "unlink removes the file", expected: .succeeds) { directory in
            let path = SyscallsTests.file(directory)
            try Syscalls.access(path, F_OK)
            try Syscalls.unlink(path)
            #expect(!FileManager.default.fileExists(atPath: path))
        },
        Case(name: "unlink of a missing path", expected: .fails(call: "unlink", errno: .noSuchFileOrDirectory)) { directory in
            try Syscalls.unlink(directory + "/missing")
        },
        Case(name: "mkdir and chmod", expected: .succeeds) { directory in
            let path = directory + "/made"
            try Syscalls.mkdir(path, mode: 0o700)
            try Syscalls.chmod(path, mode: 0o750)
            let status = try Syscalls.lstat(path)
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o777 == 0o750)
        },
        Case(name: "mkdir of an existing directory", expected: .fails(call: "mkdir", errno: .fileExists)) { directory in
            try Syscalls.mkdir(directory, mode: 0o700)
        },
        Case(name: "chmod of a missing path", expected: .fails(call: "chmod", errno: .noSuchFileOrDirectory)) { directory in
            try Syscalls.chmod(directory + "/missing", mode: 0o600)
        },
    ]

    @Test(arguments: cases)
    func wrapper(_ testCase: Case) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let directory = scratch.url.path
        do {
            try testCase.run(directory)
            if case .fails(let call, let errno) = testCase.expected {
                Issue.record("\(call) succeeded; it should have failed with \(errno).")
            }
        } catch let error as SystemCallError {
            guard case .fails(let call, let errno) = testCase.expected else {
                Issue.record("It should have succeeded: \(error)")
                return
            }
            #expect(error.call == call)
            #expect(error.errno == errno)
            #expect(error.path?.hasPrefix(directory) == true)
            // One sentence naming the call, the path and the C library's reason.
            #expect(error.description == "\(call) of \(error.path ?? "") failed: \(String(cString: strerror(errno.rawValue))) (errno \(errno.rawValue)).")
        }

    }

    @Test("sleep sleeps the whole time asked, and not at all for zero or less")
    func sleeps() {
        let start = Syscalls.clockTime(CLOCK_MONOTONIC)
        Syscalls.sleep(seconds: 0.05)
        let slept = Self.seconds(since: start)
        #expect(slept >= 0.05)
        let again = Syscalls.clockTime(CLOCK_MONOTONIC)
        Syscalls.sleep(seconds: 0)
        Syscalls.sleep(seconds: -1)
        #expect(Self.seconds(since: again) < 0.05)
    }

    @Test("clockTime reads the clock asked for", arguments: [CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_REALTIME])
    func clocks(_ clock: clockid_t) {
        var expected = timespec()
        clock_gettime(clock, &expected)
        let time = Syscalls.clockTime(clock)
        let difference = Double(time.tv_sec - expected.tv_sec) + Double(time.tv_nsec - expected.tv_nsec) / 1e9
        #expect(difference >= 0 && difference < 1)
    }

    static func seconds(since start: timespec) -> Double {
        let now = Syscalls.clockTime(CLOCK_MONOTONIC)
        return Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
    }
}
