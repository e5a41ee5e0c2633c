import Foundation
import SystemCalls
import Testing
import TestSupport

/// `DurableFile`, the one crash-safe writer (docs/system-calls.md): what it leaves behind when
/// it succeeds and when it fails.
@Suite("Durable file: whole new file or the old one, never a temporary left")
struct DurableFileTests {
    /// The names in `directory` other than `keep`.
    static func others(in directory: URL, besides keep: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !keep.contains($0) }.sorted()
    }

    @Test func writesAndReplaces() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("state.json")
        try DurableFile.write(Array("first".utf8), to: file.path)
        try DurableFile.write(Array("second, longer".utf8), to: file.path)
        #expect(try String(contentsOf: file, encoding: .utf8) == "second, longer")
        #expect(try Self.others(in: scratch.url, besides: ["state.json"]) == [])
    }

    @Test func aFailedWriteLeavesTheOldFileAndNoTemporary() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("state.json")
        try DurableFile.write(Array("kept".utf8), to: file.path)
        // Renaming a file over a directory fails after the temporary is written and synced.
        let directory = scratch.url.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try FileManager.default.createFile(atPath: directory.appendingPathComponent("inside").path, contents: Data())
        #expect(throws: SystemCallError.self) { try DurableFile.write(Array("new".utf8), to: directory.path) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept")
        #expect(try Self.others(in: scratch.url, besides: ["state.json", "taken"]) == [])
        // A directory that does not exist: the open fails, naming the call.
        let missing = scratch.url.appendingPathComponent("missing/state.json").path
        do {
            try DurableFile.write(Array("x".utf8), to: missing)
            Issue.record("A write into a missing directory succeeded.")
        } catch {
            #expect(error.call == "open" && error.errno == .noSuchFileOrDirectory)
        }
    }

    @Test func commitMovesAFinishedTemporaryIntoPlace() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("archive.zip")
        let temporary = DurableFile.temporaryPath(beside: file.path)
        #expect(temporary.hasSuffix(DurableFile.temporarySuffix))
        #expect((temporary as NSString).deletingLastPathComponent == (file.path as NSString).deletingLastPathComponent)
        try Data("zip".utf8).write(to: URL(fileURLWithPath: temporary))
        try DurableFile.commit(temporary, to: file.path)
        #expect(try String(contentsOf: file, encoding: .utf8) == "zip")
        #expect(try Self.others(in: scratch.url, besides: ["archive.zip"]) == [])
        #expect(throws: SystemCallError.self) { try DurableFile.commit(temporary, to: file.path) }
    }
}
