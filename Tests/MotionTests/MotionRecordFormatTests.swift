import Foundation
import SampleFiles
import TestSupport
import Testing
import TaskModel

@testable import Motion

@Suite("Motion record format")
struct MotionRecordFormatTests {
    /// MobilePassiveData's motion records in the shared corpus (`Fixtures.sage`, which honours
    /// `ACTIVETASK_SHARED_FIXTURES`); absent in a fresh clone.
    static let fixtures = Fixtures.sage.appendingPathComponent(Fixtures.mpd + "MotionRecorder")
    static var hasFixtures: Bool { FileManager.default.fileExists(atPath: fixtures.path) }

    private func json(_ body: (inout SampleByteBuffer) -> Void) throws -> [String: Any] {
        var buffer = SampleByteBuffer(capacity: 512)
        body(&buffer)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer.bytes)) as? [String: Any])
    }

    private func text(_ body: (inout SampleByteBuffer) -> Void) -> String {
        var buffer = SampleByteBuffer(capacity: 512)
        body(&buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// The object's keys in written order.
    private func keys(_ body: (inout SampleByteBuffer) -> Void) -> [String] {
        let written = text(body)
        let pattern = try! NSRegularExpression(pattern: "\"([A-Za-z]+)\":")
        return pattern.matches(in: written, range: NSRange(written.startIndex..., in: written)).map {
            String(written[Range($0.range(at: 1), in: written)!])
        }
    }

    @Test("A gyro record has SageResearch's keys, in its order, with exact values")
    func gyroRecord() throws {
        let record = MotionRecord(sensorType: .gyro, uptime: 37246.68689429167, x: 0.064788818359375, y: -0.1324615478515625, z: -0.9501953125)
        let stepPath = MotionRecordFormat.jsonStepPath("Cardio Stair Step/heartRate.after/heartRate")
        let body = { (buffer: inout SampleByteBuffer) in
            MotionRecordFormat.appendJSON(record, timestamp: 1.2498140833340585, stepPath: stepPath, to: &buffer)
        }
        // Compared as text: Foundation's JSONSerialization on Linux misreads some 17-digit numbers.
        #expect(
            text(body)
                == "{\"uptime\":37246.68689429167,\"timestamp\":1.2498140833340585,\"stepPath\":\"Cardio Stair Step/heartRate.after/heartRate\",\"sensorType\":\"gyro\",\"x\":0.064788818359375,\"y\":-0.1324615478515625,\"z\":-0.9501953125}")
        #expect(keys(body) == ["uptime", "timestamp", "stepPath", "sensorType", "x", "y", "z"])
    }

    @Test("An attitude record carries w, referenceCoordinate, heading and eventAccuracy")
    func attitudeRecord() throws {
        let record = MotionRecord(
            sensorType: .attitude, uptime: 1, x: 0.1, y: 0.2, z: 0.3, w: 1, eventAccuracy: 4, referenceCoordinate: .northWestUp, heading: 270.25)
        let body = { (buffer: inout SampleByteBuffer) in
            MotionRecordFormat.appendJSON(record, timestamp: 0.5, stepPath: MotionRecordFormat.jsonStepPath("a\"b"), to: &buffer)
        }
        let object = try json(body)
        #expect(object["referenceCoordinate"] as? String == "North-West-Up")
        #expect(object["heading"] as? Double == 270.25)
        #expect(object["eventAccuracy"] as? Int == 4)
        #expect(object["w"] as? Double == 1)
        #expect(object["stepPath"] as? String == "a\"b")
        #expect(keys(body) == ["uptime", "timestamp", "stepPath", "sensorType", "referenceCoordinate", "heading", "eventAccuracy", "x", "y", "z", "w"])
    }

    @Test("A step marker is {uptime, timestamp, stepPath, timestampDate}")
    func marker() throws {
        let body = { (buffer: inout SampleByteBuffer) in
            MotionRecordFormat.appendJSONMarker(
                uptime: 37246.68689429167, timestamp: 12.5, stepPath: MotionRecordFormat.jsonStepPath("Walk/motion"),
                timestampDate: "2018-01-30T15:13:20.597-02:30", to: &buffer)
        }
        let object = try json(body)
        #expect(object["timestamp"] as? Double == 12.5)
        #expect(object["timestampDate"] as? String == "2018-01-30T15:13:20.597-02:30")
        #expect(keys(body) == ["uptime", "timestamp", "stepPath", "timestampDate"])
    }

    @Test(
        "Records decode with the same keys and values as SageResearch's fixtures",
        .enabled(if: MotionRecordFormatTests.hasFixtures, "needs ../shared/fixtures (absent in a fresh clone)"),
        arguments: ["motion_record_gyro.json", "motion_record_attitude.json"])
    func matchesFixture(name: String) throws {
        // JSONDecoder, not JSONSerialization: on Linux the latter misreads some 17-digit numbers.
        // JSON5 mode accepts the gyro fixture's trailing comma.
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let fixture = try decoder.decode(
            [String: JSONValue].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
        func number(_ key: String) -> Double? {
            switch fixture[key] {
            case .number(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
        func string(_ key: String) -> String? {
            if case .string(let value) = fixture[key] { value } else { nil }
        }
        let type = try #require(MotionRecorderType(rawValue: string("sensorType") ?? ""))
        let record = MotionRecord(
            sensorType: type, uptime: try #require(number("uptime")), x: try #require(number("x")),
            y: try #require(number("y")), z: try #require(number("z")), w: number("w"),
            eventAccuracy: number("eventAccuracy").map { Int($0) },
            referenceCoordinate: string("referenceCoordinate").flatMap(MotionRecord.ReferenceCoordinate.init(rawValue:)),
            heading: number("heading"))
        var buffer = SampleByteBuffer(capacity: 512)
        MotionRecordFormat.appendJSON(
            record, timestamp: try #require(number("timestamp")),
            stepPath: MotionRecordFormat.jsonStepPath(try #require(string("stepPath"))), to: &buffer)
        let written = try decoder.decode([String: JSONValue].self, from: Data(buffer.bytes))
        #expect(Set(written.keys) == Set(fixture.keys))
        for (key, value) in fixture {
            switch (written[key], value) {
            case (.number(let a)?, .number(let b)):
                #expect(a == b, "\(key)")
            case (.number(let a)?, .integer(let b)):
                #expect(a == Double(b), "\(key)")
            case (.integer(let a)?, .integer(let b)):
                #expect(a == b, "\(key)")
            case (.integer(let a)?, .number(let b)):
                #expect(Double(a) == b, "\(key)")
            default:
                #expect(written[key] == value, "\(key)")
            }
        }
    }

    @Test("CSV rows follow SageResearch's column order; step paths with commas are quoted")
    func csv() {
        var buffer = SampleByteBuffer(capacity: 256)
        MotionRecordFormat.appendCSVMarker(
            uptime: 10, timestamp: 0, stepPath: MotionRecordFormat.csvStepPath("a,b"), timestampDate: "2018-01-30T15:13:20.597Z", to: &buffer)
        MotionRecordFormat.appendCSV(
            MotionRecord(sensorType: .accelerometer, uptime: 10.5, x: 0, y: -1, z: 0.25), timestamp: 0.5,
            stepPath: MotionRecordFormat.csvStepPath("walk"), to: &buffer)
        #expect(
            String(decoding: buffer.bytes, as: UTF8.self)
                == "10,0,\"a,b\",2018-01-30T15:13:20.597Z,,,,,,,,\n10.5,0.5,walk,,accelerometer,,,,0,-1,0.25,\n")
    }
}
