import Foundation
import Testing
import TestSupport

/// Motion devices that do not keep time (docs/audio.md, "Devices that do not keep time"):
/// `activetaskctl record` on an emulated IMU (umockdev, TESTING.md) whose scans are dated far
/// faster or far slower than the 104 Hz it is set to fails the recorder with an error result
/// that says so, and stops writing. The existing emulated-device tests replay streams dated at
/// 104 Hz faster than real time and must keep passing: the rule reads the device's own timestamps.
@Suite("Motion recording from emulated IIO devices far off their rate", .serialized, .enabled(if: UmockdevTestbed.isAvailable))
struct MotionRateTests {
    /// `count` accelerometer scans of the combined IMU, `period` nanoseconds apart.
    static func scans(count: Int, period: Int64, device: EmulatedIIODevice) -> [[UInt8]] {
        (0..<count).map { i in
            // Bytes that never start a chunk with 0x20 (umockdev drops it; UmockdevTestbed).
            device.scan(["accel_x": [101], "accel_y": [-200], "accel_z": [4096], "timestamp": [8_000_000_000_000 + Int64(i) * period]])
        }
    }

    /// Records `duration` s (3 by default) at 104 Hz from a device dated `period` ns apart, delivering `scansPerChunk`
    /// scans every `delay` ms; returns the exit status, the
    /// last JSON object printed and the accelerometer samples written.
    static func record(
        period: Int64, count: Int, scansPerChunk: Int, delay: Int, name: String, duration: Int = 3
    ) async throws -> (status: Int32, result: [String: Any]?, samples: Int, stderr: String) {
        var testbed = UmockdevTestbed()
        let device = UmockdevRecordTests.combinedIMU()
        testbed.add(device, scans: scans(count: count, period: period, device: device), scansPerChunk: scansPerChunk, delay: delay)
        let file = testbed.path("\(name).json")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer --frequency 104 --duration \(duration) --output \(file)")
        let records = (try? UmockdevTestbed.records(at: file)) ?? []
        let samples = records.filter { $0["sensorType"] as? String == "accelerometer" }.count
        return (output.status, UmockdevTestbed.lastJSONObject(in: output.stdout), samples, output.stderr)
    }

    @Test("Scans dated ten times faster than the set rate fail the recorder as too fast, with few samples written")
    func farFaster() async throws {
        let (status, result, samples, stderr) = try await Self.record(
            period: UmockdevRecordTests.period104 / 10, count: 800, scansPerChunk: 8, delay: 10, name: "fast")
        #expect(status == 1, "\(stderr)")
        let error = try #require(result, "\(stderr)")
        #expect(error["type"] as? String == "error")
        #expect(error["identifier"] as? String == "fast_error")
        #expect((error["errorDescription"] as? String)?.contains("faster than the clock") == true, "\(error)")
        // Stopped within the slack (two buffers, 22 scans), the 1 s burst allowance (100 scans)
        // and a refill or two: far from 800.
        #expect(samples < 200, "\(samples) samples written")
    }

    /// Dated four periods apart (a step too short to be an overrun's gap) and delivered at that
    /// pace too: 2 scans every 77 ms, for 6 s (the rule allows a device 2 s of lag, so a 4× slow
    /// one is caught after about 3.4 s).
    @Test("Scans delivered and dated four times slower than the set rate fail the recorder as too slow after the settling second",
          .disabled("The recorders judge only speed for now (DeliveryRateCheck.lagAllowanceSeconds); QC reports a slow rate"))
    func farSlower() async throws {
        let (status, result, samples, stderr) = try await Self.record(
            period: UmockdevRecordTests.period104 * 4, count: 200, scansPerChunk: 2, delay: 77, name: "slow", duration: 6)
        #expect(status == 1, "\(stderr)")
        let error = try #require(result, "\(stderr)")
        #expect(error["identifier"] as? String == "slow_error")
        #expect((error["errorDescription"] as? String)?.contains("slower than the clock") == true, "\(error)")
        // Stopped well before the 6 s (about 156 scans at this pace) were over.
        #expect(samples < 130, "\(samples) samples written")
    }
}
