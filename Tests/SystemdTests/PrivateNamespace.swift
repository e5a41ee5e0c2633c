import Foundation
import Glibc
import TestSupport

/// Runs a shell script as root in a private mount namespace (`unshare --mount`), where it may
/// mount a tmpfs over /run and an overlay over /dev without touching the host's.
enum PrivateNamespace {
    /// Why the namespace cannot be used here, or nil when it can.
    static var unavailableReason: String? {
        if getuid() != 0 { return "needs root for unshare --mount" }
        if ChildProcess.tool("unshare") == nil { return "needs unshare (util-linux)" }
        return nil
    }

    /// Runs `script` with `sh -e` in a new mount namespace; `arguments` are its $1, $2, …
    static func run(_ script: String, _ arguments: [String] = [], environment: [String: String?] = [:]) async throws -> ChildProcess.Output {
        let unshare = try requireTool("unshare")
        return try await ChildProcess.run(unshare, ["--mount", "--propagation", "private", "sh", "-e", "-c", script, "sh"] + arguments, environment: environment)
    }

    private static func requireTool(_ name: String) throws -> String {
        guard let path = ChildProcess.tool(name) else { throw NotifySocket.Failure(message: "\(name) is not installed") }
        return path
    }
}
