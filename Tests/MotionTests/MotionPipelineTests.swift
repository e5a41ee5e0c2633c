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
        pipeline.mark(uptime: 100, stepPath: "a") { _ in "2026-01-01T00:00:00.000Z" }
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

    @Test("A step change announced after a later sample was stamped moves just past it; samples and markers agree")
    func lateStepChange() throws {
        let path = file()
        let pipeline = MotionPipeline(
            writer: try MotionRecordWriter(path: path, csv: false, startUptime: 100), rawTypes: [.accelerometer], frequencies: [:], fusion: nil)
        func accelerometer(_ times: [Double]) -> [MotionSample] {
            times.map { MotionSample(sensor: .accelerometer, uptime: $0, x: 0, y: 0, z: -1) }
        }
        var dated: [Double] = []
        #expect(pipeline.mark(uptime: 100, stepPath: "a") { dated.append($0); return "D0" } == 100)
        feed(pipeline, accelerometer([100.00, 100.01, 100.02]))
        // The step changed at 100.015, but the batch up to 100.02 was stamped first.
        let moved = pipeline.mark(uptime: 100.015, stepPath: "b") { dated.append($0); return "D1" }
        #expect(moved == 100.02.nextUp)
        feed(pipeline, accelerometer([100.03, 100.04]))
        // On time: announced before any sample after it was stamped.
        #expect(pipeline.mark(uptime: 100.045, stepPath: "c") { dated.append($0); return "D2" } == 100.045)
        // Written at close when no batch follows.
        _ = try pipeline.close()
        #expect(dated == [100, moved, 100.045])

        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.string))) as? [[String: Any]])
        let markers = records.filter { $0["sensorType"] == nil }
        #expect(markers.compactMap { $0["stepPath"] as? String } == ["a", "b", "c"])
        #expect(markers.compactMap { $0["timestampDate"] as? String } == ["D0", "D1", "D2"])
        #expect(markers.compactMap { $0["uptime"] as? Double } == [100, moved, 100.045])
        let samples = records.filter { $0["sensorType"] != nil }
        #expect(samples.map { "\($0["uptime"] as! Double):\($0["stepPath"] as! String)" }
            == ["100.0:a", "100.01:a", "100.02:a", "100.03:b", "100.04:b"])
        // Every sample carries the last marker at or before its own time.
        for sample in samples {
            let uptime = sample["uptime"] as! Double
            let showing = markers.last { ($0["uptime"] as! Double) <= uptime }?["stepPath"] as? String
            #expect(sample["stepPath"] as? String == showing)
        }
    }

    @Test("Samples delivered before the source reports its rates keep their gaps when the rate is unchanged")
    func gapsBeforeTheRatesAreReported() throws {
        func run(reported: Double) throws -> [String] {
            let pipeline = MotionPipeline(
                writer: try MotionRecordWriter(path: file(), csv: false, startUptime: 100), rawTypes: [.accelerometer],
                frequencies: [.accelerometer: 100], fusion: nil)
            // A full buffer read at once, with a gap, before `start` returned the rates.
            feed(pipeline, [100.00, 100.01, 100.10, 100.11].map { MotionSample(sensor: .accelerometer, uptime: $0, x: 0, y: 0, z: -1) })
            pipeline.setFrequencies([.accelerometer: reported])
            feed(pipeline, [100.12].map { MotionSample(sensor: .accelerometer, uptime: $0, x: 0, y: 0, z: -1) })
            return try pipeline.close()
        }
        #expect(try run(reported: 100).contains { $0.hasPrefix("accelerometer: 1 gap(s)") })
        // At another rate the earlier steps were judged against the wrong period: counted afresh.
        #expect(try run(reported: 50).isEmpty)
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
