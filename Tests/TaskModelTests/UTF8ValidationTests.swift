import Foundation
import TestSupport
import Testing
@testable import TaskModel

/// Task files must be UTF-8: the loader checks before Foundation's JSON5 decoder, which traps on
/// some invalid bytes (issue: "Bad input").
@Suite struct UTF8ValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// Expected fault offset and bytes; nil for valid input.
        var offset: Int?
        var faultBytes: [UInt8] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ASCII", bytes: Array(#"{"a": 1}"#.utf8), offset: nil),
        Case(name: "two, three and four byte characters", bytes: Array("é € 😀 \u{10FFFF}".utf8), offset: nil),
        Case(name: "byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], offset: nil),
        Case(name: "0xFF", bytes: [0x7B, 0xFF], offset: 1, faultBytes: [0xFF]),
        Case(name: "lone continuation byte", bytes: [0x41, 0x80, 0x41], offset: 1, faultBytes: [0x80]),
        Case(name: "overlong two-byte form", bytes: [0xC0, 0x80], offset: 0, faultBytes: [0xC0]),
        Case(name: "overlong three-byte form", bytes: [0xE0, 0x80, 0x80], offset: 0, faultBytes: [0xE0, 0x80]),
        Case(name: "surrogate", bytes: [0x41, 0xED, 0xA0, 0x80], offset: 1, faultBytes: [0xED, 0xA0]),
        Case(name: "above U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], offset: 0, faultBytes: [0xF4, 0x90]),
        Case(name: "unfinished at the end", bytes: [0x41, 0xE2, 0x82], offset: 1, faultBytes: [0xE2, 0x82]),
        Case(name: "unfinished before ASCII", bytes: [0xE2, 0x41, 0x41], offset: 0, faultBytes: [0xE2, 0x41]),
        Case(name: "UTF-16 with a byte order mark", bytes: [0xFF, 0xFE, 0x7B, 0x00], offset: 0, faultBytes: [0xFF]),
    ]

    @Test(arguments: cases) func validation(_ row: Case) {
        let fault = UTF8Validation.firstFault(in: row.bytes)
        #expect(fault?.offset == row.offset)
        if row.offset != nil { #expect(fault?.bytes == row.faultBytes) }
        // Agrees with the standard library on validity.
        #expect((fault == nil) == (String(validating: row.bytes, as: UTF8.self) != nil))
    }

    /// The 19 bytes `{"":"","":"","":"",`, then 0xFF and seven spaces: Foundation's JSON5 scanner
    /// trapped on this (SIGILL) before the check; now it is a clear error.
    static let reproducer = Array(#"{"":"","":"","":"","#.utf8) + [0xFF] + Array(repeating: UInt8(ascii: " "), count: 7)

    @Test func trappingReproducerIsAClearError() throws {
        #expect(Self.reproducer.count == 27)
        let expected = TaskLoadError(
            file: "inline", codingPath: "(root)",
            reason: "The file is not valid UTF-8: at byte offset 19 (line 1, column 20) the bytes 0xFF cannot appear in UTF-8; save the file as UTF-8.")
        #expect(throws: expected) {
            try TaskLoader().load(data: Data(Self.reproducer), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("task.json").path
        try Data(Self.reproducer).write(to: URL(fileURLWithPath: path))
        #expect(throws: TaskLoadError(file: path, codingPath: "(root)", reason: expected.reason)) { try TaskLoader().load(path: path) }
    }

    @Test func invalidUTF8InATransformedFileNamesTheTransform() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("task.json", #"{"identifier": "t", "steps": [{"identifier": "s", "type": "transform", "resourceTransformer": {"resourceName": "S.json"}}]}"#)
        try Data(Array("{\"identifier\": \"s\",\n \"type\": \"section\", \"steps\": [], \"title\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
            .write(to: scratch.url.appendingPathComponent("S.json"))
        #expect(throws: TaskLoadError(
            file: path, codingPath: "steps[0]",
            reason: "The file is not valid UTF-8: at byte offset 63 (line 2, column 44) the bytes 0xC3 0x28 start a character that is not finished; save the file as UTF-8. The fault is in S.json, loaded by the transform \"s\".")) {
            try TaskLoader().load(path: path)
        }
    }
}
