import Foundation
import SystemPackage
import Testing

@testable import SampleFiles

@Suite("WAV files: header, streaming writer, crash repair")
struct WAVFileTests {
    private func temporaryPath(_ name: String) -> FilePath {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return FilePath(directory.appendingPathComponent(name).path)
    }

    private func bytes(_ path: FilePath) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path.string)))
    }

    private func le32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    @Test("The canonical header has the fields a WAV reader expects", arguments: [
        (WAVHeader.Encoding.integer, 1, 16_000, 16, 32_000),
        (.integer, 2, 48_000, 32, 384_000),
        (.float, 1, 22_050, 32, 88_200),
    ])
    func headerFields(encoding: WAVHeader.Encoding, channels: Int, rate: Int, bits: Int, byteRate: Int) throws {
        let header = WAVHeader(encoding: encoding, channels: channels, sampleRate: rate, bitsPerSample: bits, dataSize: 1_000)
        let encoded = header.encoded()
        #expect(encoded.count == 44)
        #expect(String(decoding: encoded[0..<4], as: UTF8.self) == "RIFF")
        #expect(le32(encoded, 4) == 1_036)
        #expect(String(decoding: encoded[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(Int(encoded[20]) == Int(encoding.rawValue))
        #expect(le32(encoded, 24) == rate)
        #expect(le32(encoded, 28) == byteRate)
        #expect(le32(encoded, 40) == 1_000)
        let parsed = try WAVHeader.parse(encoded)
        #expect(parsed.header == header)
        #expect(parsed.dataOffset == 44)
    }

    @Test("Chunks before data (LIST) are skipped when parsing")
    func parsesExtraChunks() throws {
        var bytes = WAVHeader(encoding: .integer, channels: 1, sampleRate: 8_000, bitsPerSample: 16, dataSize: 4).encoded()
        let list: [UInt8] = Array("LIST".utf8) + [3, 0, 0, 0] + [1, 2, 3, 0]  // odd size + pad byte
        bytes.insert(contentsOf: list, at: 36)
        let parsed = try WAVHeader.parse(bytes)
        #expect(parsed.dataOffset == 44 + list.count)
        #expect(parsed.header.dataSize == 4)
    }

    @Test("A closed streaming WAV has exact sizes and the samples in order")
    func writerClosesWithSizes() throws {
        let path = temporaryPath("a.wav")
        let writer = try WAVFileWriter(path: path, encoding: .integer, channels: 1, sampleRate: 16_000, bitsPerSample: 16, bufferCapacity: 256)
        var expected: [UInt8] = []
        for block in 0..<50 {
            let samples = (0..<160).map { UInt8(truncatingIfNeeded: $0 &+ block) }
            expected += samples
            try samples.withUnsafeBytes { try writer.append($0) }
            if block == 20 { try writer.updateHeader() }
        }
        try writer.appendSilence(byteCount: 100)
        expected += [UInt8](repeating: 0, count: 100)
        try writer.close()
        let file = try bytes(path)
        #expect(file.count == 44 + expected.count)
        #expect(le32(file, 4) == 36 + expected.count)
        #expect(le32(file, 40) == expected.count)
        #expect(Array(file[44...]) == expected)
        #expect(try SampleFileRepair.repairWAV(at: path) == .alreadyComplete)
    }

    @Test("A WAV cut by a crash gets its sizes fixed and its partial frame dropped", arguments: [0, 1, 3])
    func repairsCutFile(extraBytes: Int) throws {
        let path = temporaryPath("cut.wav")
        let writer = try WAVFileWriter(path: path, encoding: .integer, channels: 2, sampleRate: 8_000, bitsPerSample: 16, bufferCapacity: 64)
        let frames = [UInt8](repeating: 7, count: 4 * 1_000)
        try frames.withUnsafeBytes { try writer.append($0) }
        try writer.updateHeader()  // the last periodic header update before the crash
        let more = [UInt8](repeating: 9, count: 4 * 250 + extraBytes)
        try more.withUnsafeBytes { try writer.append($0) }
        try writer.writer.flush()  // data reached the file; the process dies before close()
        let outcome = try SampleFileRepair.repairWAV(at: path)
        #expect(outcome == .repaired(keptElements: 1_250, droppedBytes: Int64(extraBytes)))
        let file = try bytes(path)
        #expect(file.count == 44 + 5_000)
        #expect(le32(file, 40) == 5_000)
        #expect(le32(file, 4) == 5_036)
        #expect(try SampleFileRepair.repairWAV(at: path) == .alreadyComplete)
    }

    @Test("A file that is not a WAV is reported, not mangled")
    func refusesNonWAV() throws {
        let path = temporaryPath("x.wav")
        try Data("not a wav file at all".utf8).write(to: URL(fileURLWithPath: path.string))
        #expect(throws: SampleFileError.self) { try SampleFileRepair.repairWAV(at: path) }
        #expect(try bytes(path) == Array("not a wav file at all".utf8))
    }

    @Test("Fixed decimals are formatted without Foundation", arguments: [
        (0.0, 3, "0.000"), (-41.02032, 4, "-41.0203"), (1.0, 6, "1.000000"), (356541.292167616, 6, "356541.292168"),
        (-0.00004, 4, "0.0000"), (-160.0, 4, "-160.0000"), (2.5, 0, "3"), (Double.nan, 2, "null"), (0.999999, 3, "1.000"),
    ])
    func fixedDecimal(value: Double, digits: Int, expected: String) {
        var buffer = SampleByteBuffer(capacity: 32)
        buffer.append(fixed: value, fractionDigits: digits)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == expected)
    }
}
