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
        // Swift Testing reports on standard error, the suite's skips on standard output.
        let text = output.stdout + output.stderr
        let summary = text.split(separator: "\n").filter { $0.contains("✘") || $0.contains("Test run") || $0.contains("skipped") }
        print(summary.joined(separator: "\n"))
        #expect(output.status == 0, "\(summary.joined(separator: "\n"))\n\(output.stderr.suffix(2_000))")
        #expect(text.contains("conformance(_:) with \(AsyncActionConformance.Check.allCases.count) test cases passed"), "the inner suite ran every check")
    }
}

/// Runs only inside `umockdev-run` (see above): the emulated IMU is `local:`'s only device.
@Suite(
    "UmockdevConformanceInner", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment[UmockdevConformanceTests.variable] == "1"))
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

    @Test(arguments: AsyncActionConformance.Check.allCases)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}
