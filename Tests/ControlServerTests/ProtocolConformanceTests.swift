import Foundation
import Testing
import TestSupport

/// Runs Tests/ProtocolConformance/control_protocol_check.py: a Python client (standard socket
/// and json) drives control-test-server through a whole task and every bad input, validating
/// every answer with the jsonschema package against docs/openrpc.json, and docs/openrpc.json
/// against the published OpenRPC meta-schema.
@Suite struct ProtocolConformanceTests {
    @Test func aPythonClientKnowingOnlyTheDocumentDrivesAWholeTask() async throws {
        let server = try #require(PackagePaths.builtExecutable(named: "control-test-server"), "control-test-server was not built")
        let script = PackagePaths.root.appendingPathComponent("Tests/ProtocolConformance/control_protocol_check.py").path
        let result = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--server", server.path, "--root", PackagePaths.root.path])
        let (status, output) = (result.status, result.standardOutput + result.standardError)
        #expect(status == 0, "\(output)")
        #expect(output.contains("0 failures"), "\(output)")
    }
}
