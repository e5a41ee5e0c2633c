import Foundation
import SampleFiles
import SystemPackage
import TaskModel
import Testing

@testable import Motion

/// The motion output rules of docs/async-actions.md, each checked against values the test
/// computes itself.
@Suite("Motion output rules")
struct MotionOutputRuleTests {
    private func path(_ name: String) -> FilePath {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("motion-rules-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return FilePath(directory.appendingPathComponent(name).path)
    }

    private func sample(_ uptime: Double) -> MotionRecord {
        MotionRecord(sensorType: .gyro, uptime: uptime, x: 1, y: 2, z: 3)
    }

    @Test("Markers carry seconds since the recorder started; samples the step showing at their own time (JSON)")
    func jsonMarkersAndStepPaths() throws {
        let file = path("m.json")
        let start = 1000.25
        let writer = try MotionRecordWriter(path: file, csv: false, startUptime: start)
        try writer.writeMarker(uptime: start, stepPath: "Task/a", timestampDate: "2026-11-22T00:00:00.000Z")
        try writer.write(sample(1000.50))
        // The step changes at 1001.75; samples taken before it arrive a buffer late.
        try writer.writeMarker(uptime: 1001.75, stepPath: "Task/b", timestampDate: "2026-11-22T00:00:01.500Z")
        try writer.write(sample(1001.70))
        try writer.write(sample(1001.75))
        try writer.write(sample(1001.80))
        try writer.writeMarker(uptime: 1003.0, stepPath: "Task/c", timestampDate: "2026-11-22T00:00:02.750Z")
        try writer.write(sample(1001.90))
        try writer.write(sample(1003.5))
        // A sample from before the recorder started belongs to its first step.
        try writer.write(sample(999.0))
        try writer.close()

        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.string))) as? [[String: Any]])
        let markers = records.filter { $0["sensorType"] == nil }
        #expect(markers.map { $0["timestamp"] as? Double } == [0, 1.5, 2.75])
        #expect(markers.map { $0["stepPath"] as? String } == ["Task/a", "Task/b", "Task/c"])
        let samples = records.filter { $0["sensorType"] != nil }
        let expected: [(Double, String)] = [
            (1000.50, "Task/a"), (1001.70, "Task/a"), (1001.75, "Task/b"), (1001.80, "Task/b"),
            (1001.90, "Task/b"), (1003.5, "Task/c"), (999.0, "Task/a"),
        ]
        #expect(samples.count == expected.count)
        for (record, (uptime, step)) in zip(samples, expected) {
            #expect(record["uptime"] as? Double == uptime)
            #expect(record["stepPath"] as? String == step, "sample at \(uptime)")
            #expect(abs((record["timestamp"] as? Double ?? .nan) - (uptime - start)) < 1e-12)
        }
    }

    @Test("Records sharing a sample time get the same text as records formatted one by one")
    func sharedHeadIsByteIdentical() throws {
        let file = path("shared.json")
        let start = 2305.861548771
        let writer = try MotionRecordWriter(path: file, csv: false, startUptime: start)
        try writer.writeMarker(uptime: start, stepPath: "Walk/walk", timestampDate: "2026-11-22T04:47:24.065Z")
        // Accelerometer and gyro of one scan share the uptime (and so the head); a step change
        // between two records of the same uptime must still give the second its own step.
        let records: [MotionRecord] = [
            MotionRecord(sensorType: .accelerometer, uptime: 2305.863240625, x: -0.00003618470590588047, y: -0.0013466316577954553, z: -0.9987475115199552),
            MotionRecord(sensorType: .gyro, uptime: 2305.863240625, x: 0.0007506247809569808, y: -0.002669897271650923, z: 0.0008603123325301884),
            MotionRecord(sensorType: .accelerometer, uptime: 2305.863865625, x: 0.5, y: -1, z: 0.1),
            MotionRecord(sensorType: .attitude, uptime: 2305.863865625, x: 0.1, y: 0.2, z: 0.3, w: 0.9, eventAccuracy: 0, referenceCoordinate: .zUp),
            MotionRecord(sensorType: .gyro, uptime: 2305.863865625, x: 0, y: -0, z: 1e-7),
            MotionRecord(sensorType: .gyro, uptime: 2305.9, x: 1, y: 2, z: 3),
        ]
        for record in records.prefix(5) { try writer.write(record) }
        try writer.writeMarker(uptime: 2305.9, stepPath: "Walk/rest", timestampDate: "2026-11-22T04:47:24.103Z")
        try writer.write(records[5])
        try writer.write(records[5])
        try writer.close()

        var expected = SampleByteBuffer(capacity: 4096)
        expected.append("[\n")
        MotionRecordFormat.appendJSONMarker(
            uptime: start, timestamp: 0, stepPath: MotionRecordFormat.jsonStepPath("Walk/walk"),
            timestampDate: "2026-11-22T04:47:24.065Z", to: &expected)
        for record in records.prefix(5) {
            expected.append(",\n")
            MotionRecordFormat.appendJSON(
                record, timestamp: record.uptime - start, stepPath: MotionRecordFormat.jsonStepPath("Walk/walk"), to: &expected)
        }
        expected.append(",\n")
        MotionRecordFormat.appendJSONMarker(
            uptime: 2305.9, timestamp: 2305.9 - start, stepPath: MotionRecordFormat.jsonStepPath("Walk/rest"),
            timestampDate: "2026-11-22T04:47:24.103Z", to: &expected)
        for _ in 0..<2 {
            expected.append(",\n")
            MotionRecordFormat.appendJSON(
                records[5], timestamp: 2305.9 - start, stepPath: MotionRecordFormat.jsonStepPath("Walk/rest"), to: &expected)
        }
        expected.append("\n]\n")
        let written = try String(contentsOfFile: file.string, encoding: .utf8)
        #expect(written == String(decoding: expected.bytes, as: UTF8.self))
    }

    @Test("CSV markers carry seconds since the recorder started, and samples their own step")
    func csvMarkersAndStepPaths() throws {
        let file = path("m.csv")
        let writer = try MotionRecordWriter(path: file, csv: true, startUptime: 10)
        try writer.writeMarker(uptime: 10, stepPath: "a", timestampDate: "D0")
        try writer.writeMarker(uptime: 12.5, stepPath: "b", timestampDate: "D1")
        try writer.write(sample(12.25))
        try writer.write(sample(12.5))
        try writer.close()
        let lines = try String(contentsOfFile: file.string, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(lines.count == 5)
        #expect(lines[1][1] == "0" && lines[1][2] == "a" && lines[1][3] == "D0")
        #expect(lines[2][1] == "2.5" && lines[2][2] == "b" && lines[2][3] == "D1")
        #expect(lines[3][1] == "2.25" && lines[3][2] == "a")
        #expect(lines[4][1] == "2.5" && lines[4][2] == "b")
    }

    @Test("magneticField records carry the heading: a device lying face up with its top to the east reads 90°")
    func headingOnMagneticField() {
        let stage = DeviceMotionFusion().makeStage(types: [.attitude, .magneticField], frequency: 100)
        var records: [MotionRecord] = []
        // Face up, top pointing east: gravity on −z; the horizontal field (north) lies along
        // the device's −x, the vertical field points down (−z), 20 µT and 40 µT.
        for index in 0..<300 {
            let uptime = 500 + Double(index) / 100
            stage.consume(MotionSample(sensor: .accelerometer, uptime: uptime, x: 0, y: 0, z: -1)) { records.append($0) }
            stage.consume(MotionSample(sensor: .gyroscope, uptime: uptime, x: 0, y: 0, z: 0)) { records.append($0) }
            stage.consume(MotionSample(sensor: .magnetometer, uptime: uptime, x: -20, y: 0, z: -40)) { records.append($0) }
        }
        stage.finish { records.append($0) }
        let fields = records.filter { $0.sensorType == .magneticField }
        let attitudes = Dictionary(records.filter { $0.sensorType == .attitude }.map { ($0.uptime, $0) }, uniquingKeysWith: { $1 })
        #expect(!fields.isEmpty)
        // No heading until the filter has one (its first magnetometer correction); from then on
        // every record carries it.
        let withHeading = fields.drop { $0.heading == nil }
        #expect(withHeading.allSatisfy { $0.heading != nil })
        #expect(withHeading.count * 10 >= fields.count * 9)
        #expect(fields.allSatisfy { $0.heading == attitudes[$0.uptime]?.heading })
        // The heading computed here from the field in the device frame: atan2(−mx, my).
        let expected = (atan2(20.0, 0.0) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        let last = fields.last?.heading ?? .nan
        print("heading of the last magneticField record: \(last)°, expected \(expected)°")
        #expect(abs(last - expected) < 2)
    }
}
