import Foundation
import Metrics
import SystemCalls
import Testing
import TestSupport

/// The metrics file in node_exporter's directory (docs/fleet.md): replaced whole, left alone
/// when the directory is missing, and an error that names the file when it cannot be replaced.
@Suite("Metrics: the text file")
struct MetricsTextFileTests {
    static func exposition(_ value: Double) -> MetricsExposition {
        var exposition = MetricsExposition()
        exposition.gauge("activetask_test_value", "A value.", value)
        return exposition
    }

    @Test("The file is replaced whole, with no temporary file left beside it, readable by node_exporter's user")
    func replaced() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = MetricsTextFile(directory: scratch.url.path, fileName: "activetaskd.prom")
        for value in [1.0, 2, 3] {
            #expect(try file.write(Self.exposition(value)))
            #expect(try String(contentsOfFile: file.path, encoding: .utf8).hasSuffix("activetask_test_value \(Int(value))\n"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["activetaskd.prom"])
        let mode = try #require(FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode & 0o044 == 0o044, "mode \(String(mode, radix: 8))")
    }

    @Test("Nothing is written, and nothing created, while the directory does not exist")
    func missingDirectory() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let missing = scratch.url.appendingPathComponent("node-exporter").path
        let file = MetricsTextFile(directory: missing, fileName: "activetaskd.prom")
        #expect(try file.write(Self.exposition(1)) == false)
        #expect(!FileManager.default.fileExists(atPath: missing))
        // A plain file where the directory should be is not a directory either.
        try Data().write(to: URL(fileURLWithPath: missing))
        #expect(try file.write(Self.exposition(1)) == false)
    }

    @Test("A file that cannot be replaced gives an error naming it and the call, and leaves no temporary file")
    func cannotReplace() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = MetricsTextFile(directory: scratch.url.path, fileName: "activetask-upload.prom")
        // A directory where the file should be: rename(2) refuses to put a file over it, for
        // root as for anyone (a mode-0555 directory would stop only an unprivileged user).
        try FileManager.default.createDirectory(atPath: file.path + "/held", withIntermediateDirectories: true)
        #expect {
            try file.write(Self.exposition(8))
        } throws: { error in
            let failure = error as? SystemCallError
            return failure?.call == "rename" && failure?.errno == .isDirectory && "\(error)".contains(file.path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["activetask-upload.prom"])
    }
}
