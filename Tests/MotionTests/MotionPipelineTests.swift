import Foundation
import SampleFiles
import Synchronization
import SystemPackage
import Testing

@testable import Motion

/// The pipeline between conversion and the file: routing of raw types, gaps in the notes and
/// as warnings, failures.
@Suite("Motion pipeline")
struct MotionPipelineTests {
    private func file() -> FilePath {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("motion-pipeline-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return FilePath(directory.appendingPathComponent("m.json").path)
    }

    private func feed(_ pipeline: MotionPipeline, _ samples: [MotionSample]) {
        samples.withUnsafeBufferPointer { pipeline.receive($0) }
    }

    @Test("Only requested raw types are written; gaps are noted and warned about; the file closes valid")
    func routingAndGaps() throws {
        let path = file()
        let writer = try MotionRecordWriter(path: path, csv: false, startUptime: 100)
        let warnings = Mutex<[String]>([])
        let pipeline = MotionPipeline(
            writer: writer, rawTypes: [.accelerometer], frequencies: [.accelerometer: 100, .gyroscope: 100], fusion: nil,
            warn: { message in warnings.withLock { $0.append(message) } })
        try pipeline.mark(uptime: 100, stepPath: "a", timestampDate: "2026-01-01T00:00:00.000Z")
        let times = [100.00, 100.01, 100.02, 100.10, 100.11]  // 0.08 s gap: 7 missing at 100 Hz
        feed(pipeline, times.flatMap { time in
            [MotionSample(sensor: .accelerometer, uptime: time, x: 0, y: 0, z: -1), MotionSample(sensor: .gyroscope, uptime: time, x: 1, y: 2, z: 3)]
        })
        let notes = try pipeline.close()
        #expect(notes == [
            "accelerometer: 1 gap(s) in the sample timestamps (buffer overrun), about 7 sample(s) missing; first: 0.080 s after uptime 100.020000.",
            "gyroscope: 1 gap(s) in the sample timestamps (buffer overrun), about 7 sample(s) missing; first: 0.080 s after uptime 100.020000.",
        ])
        #expect(warnings.withLock { $0.count } == 2)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.string))) as? [[String: Any]])
        #expect(records.count == 1 + times.count)
        #expect(records.dropFirst().allSatisfy { $0["sensorType"] as? String == "accelerometer" && $0["stepPath"] as? String == "a" })
        #expect(abs((records.last?["timestamp"] as? Double ?? 0) - 0.11) < 1e-9)
    }

    @Test("A source failure is handed to the waiter once and stops writing")
    func failure() async throws {
        let pipeline = MotionPipeline(
            writer: try MotionRecordWriter(path: file(), csv: true, startUptime: 0), rawTypes: [.gyroscope], frequencies: [:], fusion: nil)
        pipeline.sourceFailed(MotionSourceError(.deviceGone, "gone"))
        pipeline.sourceFailed(MotionSourceError(.stalled, "second"))
        feed(pipeline, [MotionSample(sensor: .gyroscope, uptime: 1, x: 0, y: 0, z: 0)])
        guard case .source(let error)? = await pipeline.waitForFailure() else {
            Issue.record("expected a source failure")
            return
        }
        #expect(error.message == "gone")
        #expect(pipeline.recordCount == 0)
        pipeline.abandon()
    }

    @Test("Closing without a failure releases the waiter with nil")
    func closeReleasesWaiter() async throws {
        let pipeline = MotionPipeline(
            writer: try MotionRecordWriter(path: file(), csv: false, startUptime: 0), rawTypes: [.gyroscope], frequencies: [:], fusion: nil)
        async let waited = pipeline.waitForFailure()
        try await Task.sleep(for: .milliseconds(20))
        _ = try pipeline.close()
        #expect(await waited == nil)
    }
}
