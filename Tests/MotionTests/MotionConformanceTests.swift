import AsyncActions
import Foundation
import Logging
import Motion
import RecorderConformance
import TaskModel
import Testing

/// The motion recorder through the async-action conformance suite, on the simulated IMU
/// (faults injected into the real simulated source) and, for hanging opens, libiio's real
/// `ip:` backend against a server that never answers.
@Suite("Conformance: motion recorder on sim:")
struct MotionConformanceTests {
    static let fixture = ConformanceFixture(
        name: "motion-sim", scenarios: Set(ConformanceFixture.Scenario.allCases),
        fileNames: { ["\($0).json"] }
    ) { scenario, output, deletePrevious in
        let configuration = MotionRecorderConfiguration(
            identifier: "recorder", recorderTypes: [.accelerometer, .gyro, .attitude], frequency: 50,
            shouldDeletePrevious: deletePrevious)
        var settings = MotionDeviceSettings(iioURI: "sim:still", openDeadline: .seconds(1), stopDeadline: .seconds(1))
        func recorder(_ fault: FaultyMotionSource.Fault? = nil) -> MotionRecorder {
            MotionRecorder(
                configuration: configuration, output: output, settings: settings, fusion: DeviceMotionFusion(),
                openSource: { uri, logger throws(MotionSourceError) in
                    let source = try MotionSources.open(uri: uri, logger: logger)
                    return fault.map { FaultyMotionSource(wrapping: source, fault: $0) } ?? source
                })
        }
        switch scenario {
        case .healthy:
            return .init(recorder())
        case .failsPermission:
            settings.iioURI = "sim:flying"
            return .init(recorder())
        case .failsWhileRecording:
            return .init(recorder(.unpluggedAfterFirstBatch))
        case .failsOnStop:
            return .init(recorder(.failsWhenStopped))
        case .hangsOnOpen:
            let server = try NeverAnsweringServer()
            settings.iioURI = server.uri
            return .init(recorder(), release: { server.close() })
        case .hangsOnStop:
            let pipe = NeverReadyPipe()
            return .init(recorder(.hangsWhenStopped(pipe)), release: { pipe.release() })
        }
    }

    // Every check: the fixture reproduces every scenario.
    @Test(arguments: MotionConformanceTests.fixture.checks)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}
