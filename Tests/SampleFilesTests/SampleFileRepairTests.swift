import Foundation
import SystemPackage
import Testing

@testable import SampleFiles

@Suite("Sample file writing and crash repair")
struct SampleFileRepairTests {
    private func temporaryPath(_ name: String) -> FilePath {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("samplefiles-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return FilePath(directory.appendingPathComponent(name).path)
    }

    private func contents(_ path: FilePath) throws -> String {
        try String(contentsOfFile: path.string, encoding: .utf8)
    }

    @Test("A closed JSON array file is valid JSON with every element in order")
    func closedArrayIsValid() throws {
        let path = temporaryPath("a.json")
        let file = try JSONArrayFile(path: path, bufferCapacity: 64)
        for index in 0..<100 {
            try file.appendElement { buffer in
                buffer.append("{\"i\":")
                buffer.append(integer: index - 50)
                buffer.append(",\"s\":")
                buffer.appendJSONString("a\"b\\c\n\u{1}")
                buffer.append("}")
            }
        }
        try file.close()
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.string))) as? [[String: Any]]
        #expect(decoded?.count == 100)
        #expect(decoded?.first?["i"] as? Int == -50)
        #expect(decoded?.last?["i"] as? Int == 49)
        #expect(decoded?.first?["s"] as? String == "a\"b\\c\n\u{1}")
        #expect(try SampleFileRepair.repairJSONArray(at: path) == .alreadyComplete)
    }

    @Test(
        "A cut JSON array keeps every complete element",
        arguments: [
            ("[\n{\"a\":1},\n{\"a\":2},\n{\"a\":", 2, "[\n{\"a\":1},\n{\"a\":2}\n]\n"),
            ("[\n{\"a\":1},\n{\"a\":\"x]}\\\"", 1, "[\n{\"a\":1}\n]\n"),
            ("[\n{\"a\":1}", 1, "[\n{\"a\":1}\n]\n"),
            ("[\n{\"a\":1},", 1, "[\n{\"a\":1}\n]\n"),
            ("[\n", 0, "[\n]\n"),
            ("", 0, "[]\n"),
            ("[\n{\"a\":{\"b\":[1,2]}},\n{\"a\":{\"b\":[1", 1, "[\n{\"a\":{\"b\":[1,2]}}\n]\n"),
        ])
    func cutArrayIsRepaired(input: String, kept: Int, expected: String) throws {
        let path = temporaryPath("cut.json")
        try input.write(toFile: path.string, atomically: false, encoding: .utf8)
        let outcome = try SampleFileRepair.repairJSONArray(at: path)
        guard case .repaired(let keptElements, _) = outcome else {
            Issue.record("expected a repair, got \(outcome)")
            return
        }
        #expect(keptElements == kept)
        let repaired = try contents(path)
        #expect(repaired == expected)
        #expect((try? JSONSerialization.jsonObject(with: Data(repaired.utf8))) != nil)
    }

    @Test("A file cut while the writer was open is repaired to every flushed element")
    func writerCutMidway() throws {
        let path = temporaryPath("open.json")
        let file = try JSONArrayFile(path: path, bufferCapacity: 16)
        for index in 0..<10 {
            try file.appendElement { buffer in
                buffer.append("{\"n\":")
                buffer.append(integer: index)
                buffer.append("}")
            }
        }
        try file.writer.flush()
        // No close: the process "dies" here.
        let outcome = try SampleFileRepair.repairJSONArray(at: path)
        #expect(outcome == .repaired(keptElements: 10, droppedBytes: 0))
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.string))) as? [[String: Int]]
        #expect(decoded?.map { $0["n"] } == (0..<10).map { $0 })
    }

    @Test("A CSV cut mid-line loses only the partial line")
    func cutCSV() throws {
        let path = temporaryPath("cut.csv")
        try "a,b\n1,2\n3,".write(toFile: path.string, atomically: false, encoding: .utf8)
        #expect(try SampleFileRepair.repairCSV(at: path) == .repaired(keptElements: 1, droppedBytes: 2))
        #expect(try contents(path) == "a,b\n1,2\n")
        #expect(try SampleFileRepair.repairCSV(at: path) == .alreadyComplete)
    }

    @Test("Integers format exactly", arguments: [0, 7, 10, -1, 1234567890, Int.min + 1, Int.max])
    func integerFormatting(value: Int) {
        var buffer = SampleByteBuffer(capacity: 32)
        buffer.append(integer: value)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
    }

    @Test("Writing to a missing directory is a clear error")
    func missingDirectory() {
        #expect(throws: SampleFileError.self) {
            _ = try JSONArrayFile(path: FilePath("/nonexistent-dir-\(UUID().uuidString)/x.json"))
        }
    }
}
