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
        let (status, output) = try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, "--server", server.path, "--root", PackagePaths.root.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains("0 failures"), "\(output)")
    }
}
