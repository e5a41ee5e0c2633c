import Foundation
import Metrics
import Quality
import Session

/// The daemon's counters for `activetaskd.prom` (docs/fleet.md, "Metrics"): runs by task and
/// finish reason, quality verdicts, sensor figures, prompt lateness, recoveries and retention.
/// A plain value, updated by `DaemonHost` after each run and kept in
/// `<data-dir>/metrics-counters.json`, so that a restart (or a crash) does not reset the
/// counters Prometheus computes rates from.
struct DaemonMetrics: Codable, Sendable, Hashable {
    /// The file the counters are kept in, in the data directory.
    static let fileName = "metrics-counters.json"
    /// Prompt lateness buckets, in seconds: from a frame of audio to seconds late.
    static let latenessBuckets: [Double] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    /// One motion sensor's figures: the last run's rates, samples and gaps so far.
    struct Sensor: Codable, Sendable, Hashable {
        var deliveredHertz: Double?
        var nominalHertz: Double?
        var samples: UInt64 = 0
        var gaps: UInt64 = 0
    }

    /// One microphone recorder's xruns (overruns) and capture failures so far.
    struct Microphone: Codable, Sendable, Hashable {
        var xruns: UInt64 = 0
        var captureFailures: UInt64 = 0
    }

    /// `[task: [finish reason: runs]]`.
    var runs: [String: [String: UInt64]] = [:]
    /// `[task: [verdict: runs]]`.
    var quality: [String: [String: UInt64]] = [:]
    /// `[task: seconds since 1970]` of the last run's end.
    var lastRunEnd: [String: Double] = [:]
    /// Runs in a row, newest last, whose quality verdict was `failed` (0 after any other).
    var failedQualityStreak: UInt64 = 0
    var recovered: UInt64 = 0
    var retentionRemoved: UInt64 = 0
    var retentionTrimmed: UInt64 = 0
    /// `[recorder/sensor: figures]` (`motion/accelerometer`).
    var sensors: [String: Sensor] = [:]
    /// `[recorder: figures]`.
    var microphones: [String: Microphone] = [:]
    /// `[recorder: runs]` in which the recorder failed (quality check `controllerFailure`).
    var recorderFailures: [String: UInt64] = [:]
    var promptLateness = MetricHistogram(upperBounds: DaemonMetrics.latenessBuckets)

    init() {}

    private enum CodingKeys: String, CodingKey {
        case runs, quality, lastRunEnd, failedQualityStreak, recovered, retentionRemoved, retentionTrimmed
        case sensors, microphones, recorderFailures, promptLateness
    }

    /// Reads a kept file; keys it lacks (a file from an earlier version) keep their zero.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        runs = try container.decodeIfPresent([String: [String: UInt64]].self, forKey: .runs) ?? [:]
        quality = try container.decodeIfPresent([String: [String: UInt64]].self, forKey: .quality) ?? [:]
        lastRunEnd = try container.decodeIfPresent([String: Double].self, forKey: .lastRunEnd) ?? [:]
        failedQualityStreak = try container.decodeIfPresent(UInt64.self, forKey: .failedQualityStreak) ?? 0
        recovered = try container.decodeIfPresent(UInt64.self, forKey: .recovered) ?? 0
        retentionRemoved = try container.decodeIfPresent(UInt64.self, forKey: .retentionRemoved) ?? 0
        retentionTrimmed = try container.decodeIfPresent(UInt64.self, forKey: .retentionTrimmed) ?? 0
        sensors = try container.decodeIfPresent([String: Sensor].self, forKey: .sensors) ?? [:]
        microphones = try container.decodeIfPresent([String: Microphone].self, forKey: .microphones) ?? [:]
        recorderFailures = try container.decodeIfPresent([String: UInt64].self, forKey: .recorderFailures) ?? [:]
        promptLateness = try container.decodeIfPresent(MetricHistogram.self, forKey: .promptLateness) ?? promptLateness
    }

    /// Counts a finished run: its task, how it ended, when, its quality report (nil when the
    /// checks wrote none) and its prompts' lateness.
    mutating func recordRun(task: String, reason: FinishReason, endDate: Date, quality report: QualityReport?, lateness: [Double]) {
        runs[task, default: [:]][reason.rawValue, default: 0] += 1
        lastRunEnd[task] = max(lastRunEnd[task] ?? 0, endDate.timeIntervalSince1970)
        for seconds in lateness { promptLateness.observe(max(0, seconds)) }
        guard let report else { return }
        quality[task, default: [:]][report.verdict.rawValue, default: 0] += 1
        failedQualityStreak = report.verdict == .failed ? failedQualityStreak + 1 : 0
        for check in report.checks {
            record(check)
        }
    }

    /// Takes the figures of one check that the metrics carry (docs/quality.md names them).
    private mutating func record(_ check: QualityCheck) {
        let number = { (name: String) in check.figures[name]?.number }
        switch check.check {
        case "rate" where check.identifier.contains("/"):
            sensors[check.identifier, default: Sensor()].deliveredHertz = number("achievedHz")
            sensors[check.identifier, default: Sensor()].nominalHertz = number("expectedHz")
        case "sampleCount" where check.identifier.contains("/"):
            sensors[check.identifier, default: Sensor()].samples += UInt64(max(0, number("samples") ?? 0))
        case "gaps" where check.identifier.contains("/"):
            sensors[check.identifier, default: Sensor()].gaps += UInt64(max(0, number("count") ?? 0))
        case "overruns":
            microphones[check.identifier, default: Microphone()].xruns += UInt64(max(0, number("count") ?? 0))
        case "duration" where check.verdict == .failed:
            microphones[check.identifier, default: Microphone()].captureFailures += 1
        case "controllerFailure":
            // The identifier is the failed recorder's error result (`roomSound_error`).
            let recorder = check.identifier.hasSuffix("_error") ? String(check.identifier.dropLast(6)) : check.identifier
            recorderFailures[recorder, default: 0] += 1
        default:
            break
        }
    }

    /// Reads the counters kept in `directory`; empty ones when there are none yet or the file
    /// cannot be read (said in the log by the caller).
    static func read(from directory: URL) throws -> DaemonMetrics {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return DaemonMetrics() }
        return try JSONDecoder().decode(DaemonMetrics.self, from: Data(contentsOf: url))
    }
}
