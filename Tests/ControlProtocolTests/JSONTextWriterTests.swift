import ControlProtocol
import Foundation
import TaskModel
import TaskNavigation
import Testing

/// The control socket's own JSON writing must give the bytes Foundation's `JSONEncoder` gives
/// (sorted keys, slashes unescaped), and `JSONValueEncoder` the value `JSONValue.encoding` gives.
@Suite struct JSONTextWriterTests {
    static let values: [JSONValue] = [
        .null, true, false, 0, -1, .integer(.max), .integer(.min),
        .number(0.1), .number(1.2029130458831787), .number(1e-7), .number(1e300), .number(5e-324),
        .number(-0.0), .number(3), .number(1e16), .number(-2.5), .number(123456.789),
        "", "plain", "quote\" back\\slash", "new\nline\rret\ttab", "\u{1}\u{8}\u{C}\u{1F}\u{7F}",
        "slash/ and //", "é ü 漢 😀", "\u{2028}\u{2029}",
        [], [:], [1, "two", [3.5, .null], ["x": false]],
        ["b": 1, "a": 2, "B": 3, "_x": 4, "Z": 5, "a10": 6, "a9": 7, "é": 8, "ab": 9, "": 10],
        ["outer": ["inner": [["k": "v", "a": [1, 2]]]], "path": "Walk/walking"],
    ]

    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }

    @Test(arguments: values.indices)
    func writesWhatFoundationWrites(index: Int) throws {
        let value = Self.values[index]
        var writer = JSONTextWriter()
        try writer.write(value)
        let expected = try Self.foundation(value)
        #expect(writer.bytes == expected, "\(String(decoding: writer.bytes, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
    }

    @Test func refusesNonFiniteNumbers() {
        var writer = JSONTextWriter()
        #expect(throws: JSONTextWriter.NonFiniteNumber.self) { try writer.write(.number(.infinity)) }
        #expect(throws: JSONTextWriter.NonFiniteNumber.self) { try writer.write(.number(.nan)) }
    }

    static let responses: [JSONRPCResponse] = [
        JSONRPCResponse(id: .number(1), result: ["session": "idle", "uptime": .number(1.5), "dataDirectory": "/var/lib/activetask"]),
        JSONRPCResponse(id: .string("a/b \"c\""), result: [:]),
        JSONRPCResponse(id: nil, error: JSONRPCErrorObject(code: -32700, message: "The line is not JSON (at column 2).")),
        JSONRPCResponse(id: .number(-7), error: JSONRPCErrorObject(
            code: -32000, message: "timer.pause cannot be used while the session is running.",
            data: ["allowed": ["timer.start"], "method": "timer.pause", "state": "running"])),
        JSONRPCResponse(id: .number(.max), result: .null),
    ]

    @Test(arguments: responses.indices)
    func responseLinesAreFoundationsLines(index: Int) throws {
        let response = Self.responses[index]
        let line = try JSONRPCLineWriter.line(response)
        #expect(line == (try Self.foundation(response)) + [UInt8(ascii: "\n")], "\(String(decoding: line, as: UTF8.self))")
    }

    struct Odd: Encodable {
        var date = Date(timeIntervalSince1970: 1_700_000_000.125)
        var float: Float = 0.1
        var whole: Double = 42
        var huge: UInt64 = .max
        var missing: String?
        var url = URL(fileURLWithPath: "/var/lib/activetask/runs")
        var data = Data([0, 1, 2, 250])
        var nested: [[Int8]] = [[1, -2], []]
        var dictionary: [String: Double] = ["b": 0.5, "a": -1]
        var json: JSONValue = ["kept": [1, "x"]]
    }

    static let encodables: [any Encodable & Sendable] = [
        DaemonInfo(name: "activetaskd", version: "0.2.0", pid: 42, uptime: 12.345678901234, dataDirectory: "/var/lib/activetask",
                   iioURI: "local:", captureDevice: "default", playbackDevice: "default", session: .idle),
        SessionStatus(state: .loaded, taskIdentifier: "Walk"),
        SessionStatus(
            state: .waitingForPermission, taskIdentifier: "Walk", taskRunUUID: "B9FDA668-F5DB-435A-A567-3DC6B57EAEC4",
            runDirectory: "/var/lib/activetask/runs/B9FDA668-F5DB-435A-A567-3DC6B57EAEC4",
            step: StepShownEvent(
                stepPath: "Walk/walking", step: ["identifier": "walking", "duration": 3, "type": "active"], type: "active",
                progress: StepProgress(current: 2, total: 3, isEstimated: false), allowedActions: [.forward, .skip],
                duration: 3, previousResult: ["identifier": "walking", "startDate": "2026-11-23T02:00:00.000+00:00"]),
            timer: TimerStatus(stepPath: "Walk/walking", duration: 3, elapsed: 1.25, running: true),
            permissionRequest: PermissionRequestEvent(requestID: 1, permission: "motion", title: "Motion", actions: ["motion"], deadlineUptime: 120.5),
            finishReason: nil, archive: nil),
        RunList(runs: [RunListEntry(taskRunUUID: "B9FDA668-F5DB-435A-A567-3DC6B57EAEC4", taskIdentifier: "Walk", state: .completed,
                                    startDate: "2026-11-23T02:00:00.000+00:00", runDirectory: "/runs/x", archive: "/runs/x/x.zip")]),
        Odd(),
    ]

    @Test(arguments: encodables.indices)
    func encodesWhatTheFoundationRoundTripGives(index: Int) throws {
        let value = Self.encodables[index]
        #expect(try JSONValueEncoder.encode(value) == JSONValue.encoding(value))
    }
}
