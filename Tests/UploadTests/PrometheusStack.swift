import Foundation
import Glibc
import TestSupport

/// Debian's `prometheus-node-exporter` (one per device, its textfile collector on that device's
/// metrics directory, everything else off) and one `prometheus` scraping them every second, all
/// on loopback ports chosen free, with Prometheus's storage in the test's scratch directory
/// (docs/fleet.md). PromQL goes to Prometheus's HTTP API through curl. The processes end in
/// `stop()`; a test killed outright takes them along in its PID namespace (scripts/contained).
final class PrometheusStack: @unchecked Sendable {
    static let prometheus = "/usr/bin/prometheus"
    static let nodeExporter = "/usr/bin/prometheus-node-exporter"
    static let promtool = "/usr/bin/promtool"
    static var installed: Bool {
        [prometheus, nodeExporter, promtool].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let port: Int
    private var pids: [pid_t] = []
    private let scratch: URL

    /// Starts one node_exporter per device (`instance` name → its metrics directory) and
    /// Prometheus; returns once Prometheus is ready (its targets may not be scraped yet).
    static func start(scratch: URL, devices: [String: URL]) async throws -> PrometheusStack {
        try await onOwnThread { try PrometheusStack(scratch: scratch, devices: devices) }
    }

    private init(scratch: URL, devices: [String: URL]) throws {
        self.scratch = scratch
        port = LoopbackPort.free()
        var targets: [String] = []
        do {
            for (instance, directory) in devices.sorted(by: { $0.key < $1.key }) {
                let exporterPort = LoopbackPort.free()
                pids.append(try ChildSpawn.spawn(
                    [Self.nodeExporter, "--web.listen-address=127.0.0.1:\(exporterPort)", "--collector.disable-defaults",
                     "--collector.textfile", "--collector.textfile.directory=\(directory.path)"],
                    environment: [:], standardOutput: scratch.appendingPathComponent("node-exporter-\(instance).log").path, standardError: nil))
                try Self.waitForListener(port: exporterPort, pid: pids.last!, name: "node_exporter")
                targets.append("""
                      - targets: ["127.0.0.1:\(exporterPort)"]
                        labels: {instance: "\(instance)"}
                """)
            }
            let configuration = scratch.appendingPathComponent("prometheus.yml")
            try """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: activetask
                static_configs:
            \(targets.joined(separator: "\n"))

            """.write(to: configuration, atomically: true, encoding: .utf8)
            pids.append(try ChildSpawn.spawn(
                [Self.prometheus, "--config.file=\(configuration.path)", "--storage.tsdb.path=\(scratch.appendingPathComponent("tsdb").path)",
                 "--web.listen-address=127.0.0.1:\(port)"],
                environment: [:], standardOutput: scratch.appendingPathComponent("prometheus.log").path, standardError: nil))
            try Self.waitForListener(port: port, pid: pids.last!, name: "prometheus")
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        for pid in pids.reversed() { kill(pid, SIGTERM) }
        for pid in pids.reversed() { _ = ChildSpawn.waitForExit(pid) }
        pids = []
    }

    private static func waitForListener(port: Int, pid: pid_t, name: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while !LoopbackPort.accepts(port) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { throw PrometheusStackError("\(name) ended before it listened on port \(port)") }
            guard Date() < deadline else { throw PrometheusStackError("\(name) did not listen on port \(port) within 60 s") }
            usleep(50_000)
        }
    }

    /// One sample of an instant vector: its labels and value.
    struct Sample: Sendable, Hashable {
        var labels: [String: String]
        var value: Double
    }

    /// The instant query's result, through Prometheus's HTTP API (`/api/v1/query`) and curl.
    func query(_ promql: String) async throws -> [Sample] {
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/curl"), [
            "-sS", "--fail", "-G", "http://127.0.0.1:\(port)/api/v1/query", "--data-urlencode", "query=\(promql)",
        ])
        guard output.status == 0,
              let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any],
              object["status"] as? String == "success", let data = object["data"] as? [String: Any],
              let result = data["result"] as? [[String: Any]] else {
            throw PrometheusStackError("the query \(promql) failed: \(output.standardOutput) \(output.standardError)")
        }
        return result.compactMap { entry in
            guard let labels = entry["metric"] as? [String: String], let value = entry["value"] as? [Any],
                  let text = value.last as? String, let number = Double(text) else { return nil }
            return Sample(labels: labels, value: number)
        }
    }

    /// Queries `promql` every 200 ms until `condition` holds for its result (Prometheus scrapes
    /// every second) or `seconds` pass; returns the last result.
    func waitFor(_ promql: String, within seconds: Double = 60, _ condition: ([Sample]) -> Bool) async throws -> [Sample] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var last: [Sample] = []
        while true {
            last = try await query(promql)
            if condition(last) || ContinuousClock.now >= deadline { return last }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// The single value of `promql` once it equals `expected`, else the last seen.
    func waitForValue(_ promql: String, _ expected: Double, within seconds: Double = 60) async throws -> [Double] {
        try await waitFor(promql, within: seconds) { $0.map(\.value) == [expected] }.map(\.value)
    }

    /// `promtool check metrics` on `file`: its complaints, empty when the file passes.
    static func lint(_ file: URL) async throws -> String {
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" check metrics < \"$1\"", promtool, file.path])
        return output.status == 0 ? "" : "exit \(output.status): \(output.standardOutput)\(output.standardError)"
    }
}

struct PrometheusStackError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
