import Foundation
import Testing
import TestSupport

/// Recording over the network: iiod serves the emulated device inside a private network and
/// mount namespace (`unshare`, root), and activetaskctl records from `ip:127.0.0.1`.
@Suite("Motion recording through iiod", .enabled(if: UmockdevTestbed.canRunIIOD))
struct RemoteRecordTests {
    @Test("record over ip:127.0.0.1 gives the same converted values and timestamps as local")
    func remoteRecord() async throws {
        var testbed = UmockdevTestbed()
        let device = UmockdevRecordTests.combinedIMU()
        let start: Int64 = 9_000_000_000_000
        testbed.add(device, scans: UmockdevRecordTests.combinedScans(count: 90, start: start, device: device), scansPerChunk: 3)
        let file = testbed.path("remote.json")
        let output = try await recordThroughIIOD(testbed, duration: "0.5", output: file)
        #expect(output.status == 0, "\(output.stderr)")
        let records = try UmockdevTestbed.records(at: file)
        let accel = records.filter { $0["sensorType"] as? String == "accelerometer" }
        #expect(accel.count >= 9)
        for (i, record) in accel.enumerated() {
            let expected = ExpectedMotion.vector(
                raw: UmockdevRecordTests.accelRaw(i), scale: UmockdevRecordTests.accelScale, matrix: UmockdevRecordTests.matrixRows,
                sensor: "accelerometer")
            let values = ["x", "y", "z"].map { record[$0] as? Double ?? .nan }
            #expect(zip(values, expected).allSatisfy { ExpectedMotion.close($0, $1) })
            #expect(abs((record["uptime"] as? Double ?? 0) - Double(start + Int64(i) * UmockdevRecordTests.period104) / 1e9) < 1e-6)
        }
    }

    @Test("a remote device whose stream stops fails the recorder with an error result")
    func remoteStreamStops() async throws {
        var testbed = UmockdevTestbed()
        let device = UmockdevRecordTests.combinedIMU()
        testbed.add(device, scans: UmockdevRecordTests.combinedScans(count: 6, start: 9_500_000_000_000, device: device), scansPerChunk: 3)
        let file = testbed.path("remote-stops.json")
        let output = try await recordThroughIIOD(testbed, duration: "30", output: file)
        // iiod gives up on the silent device and drops the buffer: the refill fails, which
        // fails this recorder only, with an error result.
        #expect(output.status == 1)
        let error = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout), "\(output.stderr)")
        #expect(error["identifier"] as? String == "remote-stops_error")
        #expect(error["errorDomain"] as? String == "AsyncActionError")
        #expect(error["errorCode"] as? Int == 3)
        let records = try UmockdevTestbed.records(at: file)
        #expect(records.filter { $0["sensorType"] as? String == "gyro" }.count == 6)
    }

    /// Runs iiod on the testbed and `activetaskctl record` (accelerometer and gyro at 104 Hz)
    /// from `ip:127.0.0.1`. iiod and the recorder run in the same private network namespace, so
    /// the port is ours.
    private func recordThroughIIOD(_ testbed: UmockdevTestbed, duration: String, output file: String) async throws -> UmockdevTestbed.Output {
        try await testbed.run(
            """
            iiod >"\(testbed.path("iiod.log"))" 2>&1 & iiod=$!
            for i in 1 2 3 4 5 6 7 8 9 10; do iio_info -u ip:127.0.0.1 >/dev/null 2>&1 && break; sleep 0.2; done
            "$CTL" record --iio-uri ip:127.0.0.1 --types accelerometer,gyro --frequency 104 --duration \(duration) --output \(file); status=$?
            kill $iiod
            exit $status
            """,
            wrapper: ["/usr/bin/unshare", "--net", "--mount", "--propagation", "private", "sh", "-c", "ip link set lo up && exec \"$@\"", "sh"])
    }
}
