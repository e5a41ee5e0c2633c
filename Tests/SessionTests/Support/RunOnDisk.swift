import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// What a finished run left in its directory, read as plain JSON so that tests check the keys
/// SageResearch's analysis code reads (docs/runs.md), not this project's types.
struct RunOnDisk {
    let url: URL

    func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent(name)))
    }

    func object(_ name: String) throws -> [String: Any] {
        try #require(try json(name) as? [String: Any], "\(name) is not a JSON object")
    }

    func records(_ name: String) throws -> [[String: Any]] {
        try #require(try json(name) as? [[String: Any]], "\(name) is not a JSON array of objects")
    }

    var files: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
    }

    func archiveEntries(_ archive: URL) throws -> [String] {
        try Archive(url: archive, accessMode: .read).map(\.path)
    }

    /// The result named `identifier` in `list` (a `stepHistory` or `asyncResults`); the last one
    /// when a step was shown more than once.
    static func result(_ identifier: String, in list: Any?) -> [String: Any]? {
        (list as? [[String: Any]] ?? []).last { $0["identifier"] as? String == identifier }
    }

    /// Seconds from a result's `startDate` to its `endDate`.
    static func seconds(of result: [String: Any]?) -> Double? {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let start = (result?["startDate"] as? String).flatMap(format.date(from:)),
              let end = (result?["endDate"] as? String).flatMap(format.date(from:)) else { return nil }
        return end.timeIntervalSince(start)
    }

    static func identifiers(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
    }

    /// Checks a motion file: one marker per step path in `markers` (the first at timestamp 0,
    /// each with seconds since the recorder started, matching its uptime), samples of every
    /// `sensors` type within 2 % (at least 3 samples) of `duration` × `frequency`, each with the step path shown at
    /// its own time. A recording may run longer by the time the machine stalled (`stalled`, from
    /// `StallWitness`): its steps end that much later, so that many more samples are allowed.
    /// Returns the markers' timestamps.
    @discardableResult
    func checkMotion(
        _ name: String, markers expected: [String], sensors: [String], duration: Double, frequency: Double = 100,
        stalled: Double = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Double] {
        let records = try records(name)
        let markers = records.filter { $0["sensorType"] == nil }
        #expect(markers.compactMap { $0["stepPath"] as? String } == expected, sourceLocation: sourceLocation)
        #expect(markers.first?["timestamp"] as? Double == 0, sourceLocation: sourceLocation)
        #expect(markers.first?["timestampDate"] is String, sourceLocation: sourceLocation)
        let startUptime = markers.first?["uptime"] as? Double ?? 0
        let times = markers.compactMap { $0["timestamp"] as? Double }
        for marker in markers {
            let timestamp = marker["timestamp"] as? Double ?? -1
            let uptime = marker["uptime"] as? Double ?? 0
            #expect(abs(timestamp - (uptime - startUptime)) < 0.01, "marker \(marker)", sourceLocation: sourceLocation)
        }
        #expect(times == times.sorted(), sourceLocation: sourceLocation)
        for sensor in sensors {
            let samples = records.filter { $0["sensorType"] as? String == sensor }
            let target = duration * frequency
            // 2 % (TestTiming widens it under a sanitizer), and at least 3 samples: a short
            // recording's start and stop each land within a sample period.
            let excess = Double(samples.count) - target
            let slack = max(TestTiming.tolerance(0.02) * target, 3)
            #expect(excess >= -slack && excess <= slack + stalled * frequency,
                    "\(name): \(samples.count) \(sensor) samples for \(duration) s at \(frequency) Hz, the first at \(samples.first?["timestamp"] ?? "-") s, the last at \(samples.last?["timestamp"] ?? "-") s",
                    sourceLocation: sourceLocation)
            // A sample's step path is the step shown at its own time (the last marker before it).
            for sample in samples.prefix(2000) where !markers.isEmpty {
                let time = sample["timestamp"] as? Double ?? 0
                // At a marker's own time (to the JSON's rounding) either step is right.
                if times.contains(where: { abs($0 - time) < 0.002 }) { continue }
                let index = max(0, (times.lastIndex { $0 <= time }) ?? 0)
                #expect(sample["stepPath"] as? String == expected[min(index, expected.count - 1)], sourceLocation: sourceLocation)
            }
        }
        return times
    }
}
