@testable import Daemon
import Foundation
import Metrics
import Quality
import Session
import Testing

/// What `activetaskd.prom` counts from a finished run (docs/fleet.md, "The metrics"): the run,
/// its verdict and the figures of its quality checks; kept counters read back as written.
@Suite("activetaskd: metrics counted from finished runs")
struct DaemonMetricsTests {
    static func check(_ identifier: String, _ check: String, _ verdict: QualityVerdict = .ok, _ figures: [String: QualityFigure] = [:]) -> QualityCheck {
        QualityCheck(identifier: identifier, check: check, verdict: verdict, message: "", figures: figures)
    }

    static let motionChecks = [
        check("motion/accelerometer", "rate", .ok, ["achievedHz": 99.5, "expectedHz": 100]),
        check("motion/accelerometer", "sampleCount", .ok, ["samples": 995]),
        check("motion/accelerometer", "gaps", .warning, ["count": 2]),
    ]

    @Test("Each verdict sequence gives its failed-in-a-row streak", arguments: [
        ([QualityVerdict](), UInt64(0)),
        ([QualityVerdict.failed], UInt64(1)), ([.failed, .failed], UInt64(2)), ([.failed, .ok, .failed], UInt64(1)),
        ([.failed, .failed, .warning], UInt64(0)),
    ] as [([QualityVerdict], UInt64)])
    func streak(verdicts: [QualityVerdict], expected: UInt64) {
        var metrics = DaemonMetrics()
        for verdict in verdicts {
            metrics.recordRun(task: "Walk", reason: .completed, endDate: Date(), quality: QualityReport(checks: [Self.check("x", "y", verdict)]), lateness: [])
        }
        #expect(metrics.failedQualityStreak == expected)
        #expect(metrics.quality["Walk", default: [:]].values.reduce(0, +) == UInt64(verdicts.count))
    }

    @Test("The checks' figures become sensor counters and the last run's rates", arguments: [
        (motionChecks, "motion/accelerometer", 99.5, 100, 995, 2),
        (motionChecks + motionChecks, "motion/accelerometer", 99.5, 100, 1990, 4),
        ([check("motion/gyro", "sampleCount", .ok, ["samples": 10])], "motion/gyro", nil, nil, 10, 0),
    ] as [([QualityCheck], String, Double?, Double?, UInt64, UInt64)])
    func sensors(checks: [QualityCheck], key: String, delivered: Double?, nominal: Double?, samples: UInt64, gaps: UInt64) {
        var metrics = DaemonMetrics()
        metrics.recordRun(task: "Walk", reason: .completed, endDate: Date(), quality: QualityReport(checks: checks), lateness: [])
        #expect(metrics.sensors[key] == DaemonMetrics.Sensor(deliveredHertz: delivered, nominalHertz: nominal, samples: samples, gaps: gaps))
    }

    @Test("Microphone overruns and failed durations, and a failed recorder by its identifier")
    func microphoneAndFailures() {
        var metrics = DaemonMetrics()
        metrics.recordRun(task: "Voice", reason: .completed, endDate: Date(), quality: QualityReport(checks: [
            Self.check("roomSound", "overruns", .warning, ["count": 3]),
            Self.check("roomSound", "duration", .failed, ["audioSeconds": 0]),
            Self.check("roomSound_error", "controllerFailure", .failed, ["count": 1]),
        ]), lateness: [0.02, 0.3, 7])
        #expect(metrics.microphones["roomSound"] == DaemonMetrics.Microphone(xruns: 3, captureFailures: 1))
        #expect(metrics.recorderFailures == ["roomSound": 1])
        #expect(metrics.promptLateness.count == 3)
        let text = metrics.exposition(now: .init(version: "0.2.0", ready: true, recording: false, watchdog: false, dataFreeBytes: 10, dataSizeBytes: 100)).text
        #expect(text.contains(#"activetask_microphone_xruns_total{recorder="roomSound"} 3"#))
        #expect(text.contains(#"activetask_recorder_failures_total{recorder="roomSound"} 1"#))
        #expect(text.contains(#"activetask_run_quality_total{task="Voice",verdict="failed"} 1"#))
        #expect(text.contains(#"activetask_prompt_lateness_seconds_bucket{le="0.025"} 1"#))
        #expect(text.contains(#"activetask_prompt_lateness_seconds_bucket{le="+Inf"} 3"#))
    }

    @Test("A run without a quality report counts as a run only; the last end time per task is the latest")
    func withoutQuality() {
        var metrics = DaemonMetrics()
        metrics.recordRun(task: "Tap", reason: .interrupted, endDate: Date(timeIntervalSince1970: 2000), quality: nil, lateness: [])
        metrics.recordRun(task: "Tap", reason: .interrupted, endDate: Date(timeIntervalSince1970: 1000), quality: nil, lateness: [])
        #expect(metrics.runs == ["Tap": ["interrupted": 2]])
        #expect(metrics.quality.isEmpty)
        #expect(metrics.lastRunEnd == ["Tap": 2000])
    }

    @Test("Kept counters read back as written; a file from an earlier version (keys missing) reads with zeros; a damaged one is an error")
    func kept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try DaemonMetrics.read(from: directory) == DaemonMetrics())
        var metrics = DaemonMetrics()
        metrics.recordRun(task: "Walk", reason: .completed, endDate: Date(), quality: QualityReport(checks: Self.motionChecks), lateness: [0.1])
        metrics.recovered = 2
        let file = directory.appendingPathComponent(DaemonMetrics.fileName)
        try JSONEncoder().encode(metrics).write(to: file)
        #expect(try DaemonMetrics.read(from: directory) == metrics)
        try Data(#"{"recovered": 5}"#.utf8).write(to: file)
        #expect(try DaemonMetrics.read(from: directory).recovered == 5)
        try Data("{".utf8).write(to: file)
        #expect(throws: (any Error).self) { try DaemonMetrics.read(from: directory) }
    }
}
