import Foundation
import Glibc
import TestSupport

/// The tests' loopback proxy between activetask-upload and moto (Support/fault_proxy.py): it
/// forwards every request unless a rule of its control file says to answer an error, reset the
/// connection or stall in the middle of the body, replace the storage's answer (a cut Complete),
/// hold the answer of a call that took effect (for a kill), play a skewed clock, or stop
/// listening for a while. It logs every
/// request with its time, which is how the tests measure when a retry came.
final class FaultProxy: Sendable {
    static let script = PackagePaths.root.appendingPathComponent("Tests/UploadTests/Support/fault_proxy.py").path

    /// One line of the proxy's log: a request (`method`, `target`, what was done to it and the
    /// status answered) or an outage `event` ("down", "up").
    struct Record: Sendable {
        var time: Double
        var method: String
        var target: String
        /// forward, answer (the storage's answer to a forwarded request), status, reset, stall, replace and
        /// replaced (the answer given instead), held, skew (a request refused for its time).
        var action: String
        var status: Int?
        var event: String?
    }

    let port: Int
    let control: URL
    let log: URL
    private let pid: pid_t

    /// Starts the proxy in front of `upstreamPort` on a thread of its own (Python takes a moment
    /// to listen, and the wait must not hold a concurrency thread).
    /// `port` is the one to listen on (a free one when nil), for URLs made before the proxy starts.
    static func start(upstreamPort: Int, scratch: URL, port: Int? = nil) async throws -> FaultProxy {
        try await onOwnThread { try FaultProxy(upstreamPort: upstreamPort, scratch: scratch, listenPort: port) }
    }

    private init(upstreamPort: Int, scratch: URL, listenPort: Int?) throws {
        port = listenPort ?? LoopbackPort.free()
        control = scratch.appendingPathComponent("proxy-\(port).json")
        log = scratch.appendingPathComponent("proxy-\(port).log")
        let output = scratch.appendingPathComponent("proxy-\(port).out")
        pid = try ChildSpawn.spawn(["/usr/bin/env", "python3", Self.script, "--port", "\(port)", "--upstream-port", "\(upstreamPort)",
                                    "--control", control.path, "--log", log.path],
                                   environment: ProcessInfo.processInfo.environment, standardOutput: output.path, standardError: nil)
        try MotoServer.waitForListener(pid: pid, port: port, name: "The fault proxy", output: output)
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Replaces the proxy's rules (fault_proxy.py documents their keys); `downSeconds` above 0
    /// starts an outage at once. The file is renamed into place so the proxy never reads half.
    func configure(rules: [[String: Any]], downSeconds: Double = 0) throws {
        let temporary = control.appendingPathExtension("new")
        try JSONSerialization.data(withJSONObject: ["rules": rules, "downSeconds": downSeconds]).write(to: temporary)
        guard rename(temporary.path, control.path) == 0 else {
            throw MotoError("The fault proxy's control file \(control.path) could not be replaced: \(String(cString: strerror(errno))).")
        }
    }

    /// Everything logged so far, in order.
    func records() -> [Record] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = object["time"] as? Double else { return nil }
            return Record(time: time, method: object["method"] as? String ?? "", target: object["target"] as? String ?? "",
                          action: object["action"] as? String ?? "", status: object["status"] as? Int, event: object["event"] as? String)
        }
    }

    /// The log, for failure messages.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func stop() { Self.end(pid) }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        _ = ChildSpawn.waitForExit(pid)
    }
}
