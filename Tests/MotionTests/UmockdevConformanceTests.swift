import AsyncActions
import Clocks
import Foundation
import Motion
import RecorderConformance
import TaskModel
import TestSupport
import Testing

/// The motion recorder through the conformance suite on an emulated IMU read by libiio's real
/// `local:` backend. libiio's sysfs and /dev paths are fixed, so the suite runs in a second
/// copy of this test binary under `umockdev-run` (the outer test), with the inner suite enabled
/// by an environment variable.
@Suite("Conformance: motion recorder on an umockdev IMU", .enabled(if: UmockdevTestbed.isAvailable))
struct UmockdevConformanceTests {
    static let variable = "ACTIVETASK_UMOCKDEV_CONFORMANCE"

    @Test("The conformance suite passes in the test binary run under umockdev-run")
    func underUmockdev() async throws {
        let binary = ProcessInfo.processInfo.arguments[0]
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the test binary \(binary) cannot be run again")
        var testbed = UmockdevTestbed()
        let device = UmockdevRecordTests.combinedIMU(timestampClock: "boottime")
        let start = Int64(RecordingClock.uptime() * 1e9)
        testbed.add(
            device, scans: UmockdevRecordTests.combinedScans(count: 2_000, start: start, device: device), scansPerChunk: 4, delay: 38)
        let output = try await testbed.run(
            "\(Self.variable)=1 \"\(binary)\" --testing-library swift-testing --filter UmockdevConformanceInner", timeout: 300)
        // The inner run's Swift Testing report, whichever stream it comes on.
        let text = output.stdout + output.stderr
        let summary = text.split(separator: "\n").filter { $0.contains("✘") || $0.contains("Test run") || $0.contains("skipped") }
        // Prefixed, so that scripts/test.sh does not count the inner run's lines as this run's.
        let report = summary.map { "  umockdev-run: \($0)" }.joined(separator: "\n")
        print(report)
        #expect(output.status == 0, "\(report)\n\(output.stderr.suffix(2_000))")
        let checks = UmockdevConformanceInner.fixture.checks
        #expect(text.contains("conformance(_:) with \(checks.count) test cases passed"), "the inner suite ran every reproducible check: \(checks)")
        #expect(text.contains("Test notReproducible(_:) skipped"), "the inner suite lists the other checks as skipped")
    }
}

/// Runs only inside `umockdev-run` (see above): the emulated IMU is `local:`'s only device.
@Suite(
    "UmockdevConformanceInner", .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment[UmockdevConformanceTests.variable] == "1",
        "Runs inside umockdev-run only, started there by UmockdevConformanceTests."))
struct UmockdevConformanceInner {
    static let fixture = ConformanceFixture(
        name: "motion-umockdev", scenarios: [.healthy, .failsPermission], fileNames: { ["\($0).json"] }
    ) { scenario, output, deletePrevious in
        // The IMU has an accelerometer and a gyroscope; asking for the magnetometer is refused.
        let types: [MotionRecorderType] = scenario == .failsPermission ? [.accelerometer, .magnetometer] : [.accelerometer, .gyro]
        let configuration = MotionRecorderConfiguration(
            identifier: "recorder", recorderTypes: types, frequency: 100, shouldDeletePrevious: deletePrevious)
        return .init(MotionRecorder(
            configuration: configuration, output: output,
            settings: MotionDeviceSettings(iioURI: "local:", openDeadline: .seconds(5), stopDeadline: .seconds(5))))
    }

    @Test(arguments: UmockdevConformanceInner.fixture.checks)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }

    // MotionConformanceTests reproduces these on the simulated source.
    @Test(
        .disabled(
            "umockdev replays the emulated IMU's stream as scripted: it cannot make the node's reads fail or hang, nor libiio's local: backend hang when it opens or stops the device."
        ),
        arguments: UmockdevConformanceInner.fixture.unreproducibleChecks)
    func notReproducible(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}
