import AsyncActions
import RecorderConformance
import TaskModel
import Testing

/// The unsupported controller (`distance`, unknown types) through the conformance suite: its
/// permission always fails, so only the permission failure applies; the checks that need it to
/// record, hang or fail later are listed as skipped with that reason.
@Suite("Conformance: unsupported controller")
struct UnsupportedConformanceTests {
    static let fixture = ConformanceFixture(name: "unsupported", scenarios: [.failsPermission], fileNames: { _ in [] }) { _, output, _ in
        .init(AsyncActionControllerRegistry().makeController(for: DistanceRecorderConfiguration(identifier: "recorder"), output: output))
    }

    @Test(arguments: UnsupportedConformanceTests.fixture.checks)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }

    @Test(
        .disabled("The unsupported controller never opens a device (its permission always fails), so it never records, hangs or fails later."),
        arguments: UnsupportedConformanceTests.fixture.unreproducibleChecks)
    func notApplicable(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}
