import Foundation
@testable import Quality
@testable import RunReport
import Testing

/// The pure bookkeeping behind the checks, table-driven.
@Suite("Quality bookkeeping")
struct BookkeepingTests {
    struct GapCase: Sendable, CustomTestStringConvertible {
        var name: String
        var uptimes: [Double]
        var count: Int
        var total: Double
        var longest: Double
        var longestAfter: Double?
        var testDescription: String { name }
    }

    @Test("GapTracker counts time missing beyond one period", arguments: [
        GapCase(name: "regular 100 Hz", uptimes: (0..<50).map { Double($0) * 0.01 }, count: 0, total: 0, longest: 0, longestAfter: nil),
        GapCase(name: "jitter under 1.9 periods", uptimes: [0, 0.018, 0.02, 0.038, 0.04], count: 0, total: 0, longest: 0, longestAfter: nil),
        GapCase(name: "one 0.5 s hole", uptimes: [0, 0.01, 0.02, 0.53, 0.54], count: 1, total: 0.5, longest: 0.5, longestAfter: 0.02),
        GapCase(name: "two holes, longest second", uptimes: [0, 0.01, 0.05, 0.06, 0.36], count: 2, total: 0.03 + 0.29, longest: 0.29, longestAfter: 0.06),
    ])
    func gaps(_ test: GapCase) {
        var tracker = GapTracker(period: 0.01, tolerance: 1.9)
        for uptime in test.uptimes { tracker.next(uptime: uptime, stepPath: "step") }
        #expect(tracker.count == test.count)
        #expect(abs(tracker.totalSeconds - test.total) < 1e-9)
        #expect(abs((tracker.longest?.seconds ?? 0) - test.longest) < 1e-9)
        #expect(tracker.longest?.afterUptime == test.longestAfter)
    }

    @Test("StuckRunTracker finds the longest run of one exact value", arguments: [
        ([1.0, 2, 3, 4], 1, 1.0),
        ([1.0, 1, 1, 2, 2], 3, 1.0),
        ([0.5, 1, 1, 1, 1, 1, 0.5], 5, 1.0),
        ([3.0, 3, 3, 3], 4, 3.0),
    ])
    func stuck(values: [Double], samples: Int, value: Double) {
        var tracker = StuckRunTracker()
        for (index, sample) in values.enumerated() { tracker.next(sample, uptime: Double(index) * 0.1) }
        #expect(tracker.longest?.samples == samples)
        #expect(tracker.longest?.value == value)
        #expect(abs((tracker.longest?.seconds ?? -1) - Double(samples - 1) * 0.1) < 1e-9)
    }

    @Test("ExtremeTracker counts values pinned at a full-scale extreme", arguments: [
        ([0.1, 8, 8, 8, -0.2], 3),           // pinned at +8 g three times
        ([0.1, 8, 8, -0.2], 0),              // twice is a natural peak
        ([0.1, 1.5, 1.5, 1.5, 1.5], 0),      // repeated but below full scale
        ([-8.0, -8, -8, 8, 8, 8, 0], 6),     // both rails
        ([8.0, 8, 8, 8], 0),                 // one value only: stuck, not clipped
    ])
    func clipping(values: [Double], clipped: Int) {
        var tracker = ExtremeTracker()
        for value in values { tracker.next(value) }
        #expect(tracker.clippedSamples(fullScale: 1.9, minimumSamples: 3) == clipped)
    }

    @Test("RunningStatistics matches the direct formulas")
    func statistics() {
        let values = [2.0, 4, 4, 4, 5, 5, 7, 9]
        var statistics = RunningStatistics()
        values.forEach { statistics.add($0) }
        #expect(statistics.count == 8)
        #expect(abs(statistics.mean - 5) < 1e-12)
        #expect(abs(statistics.standardDeviation - 2) < 1e-12)
        #expect(statistics.minimum == 2 && statistics.maximum == 9)
    }

    @Test("StillnessAccumulator measures gravity and gyro bias only while still")
    func stillness() {
        var accumulator = StillnessAccumulator(windowSeconds: 0.5, accelerometerDeviation: 0.02, gyroDeviation: 0.05)
        // 2 s still at 1.02 g with a 0.03 rad/s z bias, then 2 s of shaking.
        for index in 0..<400 {
            let time = Double(index) * 0.01
            let shaking = time >= 2
            let wobble = shaking ? sin(time * 40) : 0.001 * Double(index % 3)
            accumulator.addAccelerometer(uptime: time, x: wobble, y: 0, z: -1.02)
            accumulator.addGyro(uptime: time, x: shaking ? 2 * wobble : 0, y: 0, z: 0.03)
        }
        accumulator.finish()
        #expect(abs(accumulator.stillSeconds - 2) < 1e-9)
        #expect(abs(accumulator.gravity.mean - 1.02) < 1e-3)
        #expect(abs(accumulator.gyroBias[2].mean - 0.03) < 1e-9)
    }

    @Test("A window cut short by the recording's end is not judged, however little its few samples vary")
    func partialWindow() {
        var accumulator = StillnessAccumulator(windowSeconds: 0.5, accelerometerDeviation: 0.02, gyroDeviation: 0.05)
        // A 0.5 Hz bounce of 0.3 g from 0 to 0.55 s: the last window, [0.5, 0.55], holds six
        // samples at the bounce's peak (-0.7 g), which alone vary by under 0.004 g.
        for index in 0...55 {
            let time = Double(index) * 0.01
            accumulator.addAccelerometer(uptime: time, x: 0, y: 0, z: -1 + 0.3 * sin(Double.pi * time))
        }
        accumulator.finish()
        #expect(accumulator.stillSeconds == 0)
        #expect(accumulator.gravity.count == 0)
    }

    @Test("Rates and overruns are read from the recorders' notes")
    func notes() {
        let rates = SensorRate.notedRates([
            "accelerometer on iio:device0 samples at 104 Hz, the nearest the device offers to the requested 100 Hz.",
            "The simulated IMU samples at 50 Hz, the nearest it offers to the requested 60 Hz.",
        ])
        #expect(rates["accelerometer"]?.device == 104 && rates["accelerometer"]?.requested == 100)
        #expect(rates["*"]?.device == 50)
        #expect(AudioChecks.overruns(["overrun of 0.412 s at monotonic 1234.567, filled with silence", "no audio was captured"]) == [0.412])
    }

    @Test("Motion records parse from JSON and CSV alike")
    func records() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quality-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("m.json")
        try """
        [
        {"uptime":10.5,"timestamp":0,"stepPath":"Walk/\\"a\\"","timestampDate":"2026-11-22T04:47:24.065Z"},
        {"uptime":10.51,"timestamp":0.01,"stepPath":"Walk/walk","sensorType":"attitude","referenceCoordinate":"Z-Up","eventAccuracy":1,"x":0.1,"y":-2e-3,"z":0,"w":0.99},
        {"uptime":10.52,"timestamp":0.02,"stepPath":"Walk/walk","sensorType":"somethingElse","x":1,"y":2,"z":3}
        ]
        """.write(to: json, atomically: true, encoding: .utf8)
        let csv = directory.appendingPathComponent("m.csv")
        try #"""
        uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w
        10.5,0,"Walk/""a""",2026-11-22T04:47:24.065Z,,,,,,,,
        10.51,0.01,Walk/walk,,attitude,1,Z-Up,,0.1,-2e-3,0,0.99

        """#.write(to: csv, atomically: true, encoding: .utf8)
        for url in [json, csv] {
            var records: [MotionFileRecord] = []
            try MotionFileReader.forEachRecord(at: url) { records.append($0) }
            #expect(records.count == 2, "\(url.lastPathComponent)")
            #expect(records.first?.isMarker == true)
            #expect(records.first?.stepPath == "Walk/\"a\"")
            #expect(records.last?.sensorType == .attitude)
            #expect(records.last.map { [$0.uptime, $0.x, $0.y, $0.z, $0.w ?? 0] } == [10.51, 0.1, -0.002, 0, 0.99])
        }
    }

    @Test("MinMaxDecimator keeps each column's extremes")
    func decimation() {
        var decimator = MinMaxDecimator(start: 0, end: 10, columns: 10)
        for index in 0..<1000 { decimator.add(Double(index % 7) - 3, at: Double(index) / 100) }
        decimator.add(50, at: 4.5)
        let columns = decimator.filledColumns
        #expect(columns.count == 10)
        #expect(columns.allSatisfy { $0.minimum == -3 })
        #expect(columns[4].maximum == 50)
        #expect(columns[3].maximum == 3)
        var span = MinMaxDecimator(start: 0, end: 10, columns: 10)
        span.add(-20, from: 2, to: 4)
        #expect(span.filledColumns.map(\.column) == [2, 3, 4])
    }

    @Test("Thresholds decode from a partial object, keeping the other defaults")
    func thresholds() throws {
        let decoded = try JSONDecoder().decode(QualityThresholds.self, from: Data(#"{"gapFailedSeconds": 2.5, "stuckMinimumSamples": 20}"#.utf8))
        var expected = QualityThresholds()
        expected.gapFailedSeconds = 2.5
        expected.stuckMinimumSamples = 20
        #expect(decoded == expected)
    }

    @Test("A failed recorder fails the run; one this device does not support at all is a warning", arguments: [
        (ControllerFailure(identifier: "motion_error", errorDescription: "The sensor is gone.", errorDomain: "AsyncActionError", errorCode: 3), QualityVerdict.failed),
        (ControllerFailure(identifier: "motion_error", errorDescription: "Permission denied.", errorDomain: "AsyncActionError", errorCode: 1), .failed),
        (ControllerFailure(identifier: "location_error", errorDescription: "Not supported.", errorDomain: "AsyncActionError", errorCode: 5), .warning),
        (ControllerFailure(identifier: "sound_error", errorDescription: "Code 5 of another domain.", errorDomain: "activetask", errorCode: 5), .failed),
        (ControllerFailure(identifier: "sound_error", errorDescription: "No domain."), .failed),
    ])
    func controllerFailures(failure: ControllerFailure, verdict: QualityVerdict) {
        let checks = ControllerChecks.evaluate([failure])
        #expect(checks.map(\.verdict) == [verdict])
        #expect(checks.first?.message.contains(failure.errorDescription) == true)
    }

    @Test("The overall verdict is the worst check's")
    func verdict() throws {
        let checks = [QualityVerdict.ok, .warning, .ok].map { QualityCheck(identifier: "a", check: "b", verdict: $0, message: "m") }
        #expect(QualityReport(checks: checks).verdict == .warning)
        #expect(QualityReport(checks: []).verdict == .ok)
        let json = try JSONSerialization.jsonObject(with: QualityReport(checks: checks).encoded()) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["verdict", "checks"])
        #expect(Set((json?["checks"] as? [[String: Any]])?.first?.keys.map { $0 } ?? []) == ["identifier", "check", "verdict", "message", "figures"])
    }
}
