import AsyncActions
import RecorderConformance
import TaskModel
import Testing

/// The unsupported controller (`distance`, unknown types) through the conformance suite: its
/// permission always fails, so only the failure and cancel checks apply.
@Suite("Conformance: unsupported controller")
struct UnsupportedConformanceTests {
    static let fixture = ConformanceFixture(name: "unsupported", scenarios: [.failsPermission], fileNames: { _ in [] }) { _, output, _ in
        .init(AsyncActionControllerRegistry().makeController(for: DistanceRecorderConfiguration(identifier: "recorder"), output: output))
    }

    @Test(arguments: AsyncActionConformance.Check.allCases)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}
