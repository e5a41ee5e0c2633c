import Foundation
import SampleFiles
import SystemPackage
import Testing

@testable import Motion

/// When records reach the file: the first ones at the first tick that has any (so a run's
/// first sample is on disk one refill after the start, docs/motion.md), later ones at the
/// flush interval.
@Suite("Motion record writer flushing")
struct MotionRecordWriterFlushTests {
    private func fileText(_ path: FilePath) throws -> String {
        try String(contentsOfFile: path.string, encoding: .utf8)
    }

    @Test("The first records are on disk after the first tick; later ones wait for the flush interval", arguments: [false, true])
    func firstRecordsFlushAtOnce(csv: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("motion-flush-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = FilePath(directory.appendingPathComponent(csv ? "m.csv" : "m.json").path)
        // An hour's flush interval: anything on disk before close came from the first-records rule.
        let writer = try MotionRecordWriter(path: path, csv: csv, startUptime: 100, policy: SyncPolicy(flushInterval: 3600, syncInterval: 3600))
        try writer.writeMarker(uptime: 100, stepPath: "Task/a", timestampDate: "2026-11-22T00:00:00.000Z")
        try writer.tick()
        #expect(try fileText(path).isEmpty, "a marker alone is not flushed early")

        try writer.write(MotionRecord(sensorType: .gyro, uptime: 100.5, x: 1, y: 2, z: 3))
        try writer.tick()
        let afterFirst = try fileText(path)
        #expect(afterFirst.contains("100.5"), "the first record is on disk after the first tick")

        try writer.write(MotionRecord(sensorType: .gyro, uptime: 101.75, x: 1, y: 2, z: 3))
        try writer.tick()
        #expect(try fileText(path) == afterFirst, "later records wait for the flush interval")

        try writer.close()
        #expect(try fileText(path).contains("101.75"))
    }
}
