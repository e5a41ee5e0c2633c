import Foundation
import Glibc
import TestSupport
import Testing

/// The metrics of docs/fleet.md end to end: the real activetaskd (simulated IMU) and
/// activetask-upload (against moto, authentication enforced) write their files into a metrics
/// directory; `promtool check metrics` accepts them; Debian's node_exporter collects them and
/// Debian's Prometheus scrapes it, and PromQL through Prometheus's HTTP API shows the runs, a
/// quality failure, held uploads and then uploaded ones; a fleet of daemons scraped by one
/// Prometheus gives the dashboard one row per device.
@Suite(
    "Fleet metrics: activetaskd and activetask-upload scraped by Prometheus", .serialized,
    // Real processes (a dozen daemons, Prometheus): the plain pass only, as the S3 tests.
    .enabled(if: TestTiming.scale == 1, "skipped under a sanitizer: the Prometheus tests run in the plain pass only"),
    .enabled(if: MotoServer.executable != nil, "skipped: moto_server is not installed (scripts/setup.sh)"),
    .enabled(if: PrometheusStack.installed, "skipped: prometheus, prometheus-node-exporter or promtool is not installed (scripts/setup.sh)")
)
final class FleetMetricsTests: @unchecked Sendable {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory()
    }

    deinit {
        scratch.remove()
    }

    /// One simulated tablet: a data directory with an outbox (uploads configured), a metrics
    /// directory (node_exporter's textfile directory) and a control socket.
    struct Device {
        let name: String
        let root: URL
        var dataDirectory: URL { root.appendingPathComponent("data") }
        var metricsDirectory: URL { root.appendingPathComponent("metrics") }
        var socket: String { root.appendingPathComponent("control.sock").path }

        init(name: String, scratch: URL) throws {
            self.name = name
            root = scratch.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("data/outbox"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("metrics"), withIntermediateDirectories: true)
        }
    }

    /// A motion recording of `seconds` at 100 Hz; with `microphone`, a microphone recorder too.
    static func task(_ identifier: String, seconds: Int, microphone: Bool) -> String {
        let sound = microphone ? #", { "identifier": "roomSound", "type": "microphone", "saveAudioFile": true, "startStepIdentifier": "walking", "stopStepIdentifier": "walking" }"# : ""
        return """
            { "identifier": "\(identifier)", "type": "motionTask",
              "asyncActions": [
                { "identifier": "motion", "type": "motion", "startStepIdentifier": "walking", "stopStepIdentifier": "walking",
                  "recorderTypes": ["accelerometer", "gyro"], "frequency": 100 }\(sound)
              ],
              "steps": [
                { "identifier": "walking", "type": "active", "duration": \(seconds), "commands": ["startTimerAutomatically", "transitionAutomatically"] },
                { "identifier": "done", "type": "completion", "title": "Done" }
              ] }
            """
    }

    /// Starts activetaskd for `device` (simulated IMU; a capture device that does not exist, so
    /// a microphone recorder fails) and waits until it answers on its socket.
    func startDaemon(_ device: Device) async throws -> pid_t {
        let executable = try #require(PackagePaths.builtExecutable(named: "activetaskd"), "activetaskd was not built")
        let config = device.root.appendingPathComponent("activetaskd.json")
        try Data(#"{"permissions": {"motion": "granted", "microphone": "granted"}}"#.utf8).write(to: config)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACTIVETASK_") }
        for variable in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
            environment[variable] = nil
        }
        environment["XDG_RUNTIME_DIR"] = device.root.path
        let pid = try ChildSpawn.spawn(
            [executable.path, "--config", config.path, "--socket", device.socket, "--data-dir", device.dataDirectory.path,
             "--iio-uri", "sim:walking", "--capture-device", "metrics_no_such_pcm", "--playback-device", "metrics_no_such_pcm",
             "--metrics-directory", device.metricsDirectory.path],
            environment: environment, standardOutput: device.root.appendingPathComponent("daemon.log").path, standardError: nil)
        let listening = await UploadAgainstS3Tests.waitUntil(60) { UploadAgainstS3Tests.accepts(device.socket) }
        if !listening { stop(pid) }
        try #require(listening, "activetaskd did not listen; its log:\n\(log(device, "daemon.log"))")
        return pid
    }

    /// Runs `task` on `device` through `activetaskctl run --auto --json`; returns its summary.
    func run(_ task: String, on device: Device) async throws -> [String: Any] {
        let file = device.root.appendingPathComponent("task-\(UUID().uuidString.prefix(8)).json")
        try Data(task.utf8).write(to: file)
        let output = try await CommandRunner.run(["--socket", device.socket, "run", file.path, "--auto", "--json"])
        #expect(output.status == 0, "\(output.standardError)\n\(log(device, "daemon.log"))")
        let last = output.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]) ?? [:]
    }

    /// Starts activetask-upload for `device` against moto with `secret`, under the unit's
    /// `UMask=0027` (its metrics file must still be readable by node_exporter's user).
    func startUploader(_ device: Device, moto: MotoServer, secret: String) throws -> pid_t {
        let executable = try #require(PackagePaths.builtExecutable(named: "activetask-upload"), "activetask-upload was not built")
        let secretFile = device.root.appendingPathComponent("secret-\(UUID().uuidString.prefix(8))")
        try Data("\(secret)\n".utf8).write(to: secretFile)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACTIVETASK_") }
        environment["CREDENTIALS_DIRECTORY"] = nil
        environment["NOTIFY_SOCKET"] = nil
        return try ChildSpawn.spawn(
            ["/bin/sh", "-c", "umask 027; exec \"$0\" \"$@\"", executable.path, "--data-dir", device.dataDirectory.path, "--study", "pd-study", "--device", device.name, "--poll-seconds", "0.2",
             "--s3-endpoint", moto.endpoint, "--s3-bucket", moto.bucket, "--s3-region", "us-east-1", "--s3-path-style", "true",
             "--s3-access-key-id", moto.accessKeyID, "--s3-secret-access-key-file", secretFile.path,
             "--metrics-directory", device.metricsDirectory.path],
            environment: environment, standardOutput: device.root.appendingPathComponent("upload.log").path, standardError: nil)
    }

    func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        _ = ChildSpawn.waitForExit(pid)
    }

    func log(_ device: Device, _ name: String) -> String {
        (try? String(contentsOf: device.root.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    @Test("After a run, a quality failure, held uploads and then uploaded ones, promtool accepts both files and Prometheus shows the values")
    func oneDevice() async throws {
        let device = try Device(name: "tablet-1", scratch: scratch.url)
        let moto = try await MotoServer.start(scratch: scratch.url)
        defer { moto.stop() }
        let stack = try await PrometheusStack.start(scratch: scratch.url, devices: [device.name: device.metricsDirectory])
        defer { stack.stop() }
        let daemon = try await startDaemon(device)
        defer { stop(daemon) }
        // Written at start: the version and readiness, before any run.
        let ready = try await stack.waitForValue(#"activetask_ready{instance="tablet-1"}"#, 1)
        let targets = try await stack.query("up")
        #expect(ready == [1], "\(ready); targets: \(targets); file:\n\(log(device, "metrics/activetaskd.prom"))\nlog:\n\(log(device, "daemon.log"))")

        let walk = try await run(Self.task("MetricsWalk", seconds: 1, microphone: false), on: device)
        #expect(walk["status"] as? String == "completed", "\(walk)")
        let failed = try await run(Self.task("MetricsRoom", seconds: 1, microphone: true), on: device)
        #expect(failed["status"] != nil, "\(failed)")

        // A wrong secret: both runs are held with S3's reason.
        let wrong = try startUploader(device, moto: moto, secret: "not-the-secret")
        let held = try await stack.waitFor(#"activetask_upload_held_runs{instance="tablet-1"}"#) { $0.map(\.value) == [2] }
        stop(wrong)
        #expect(held.map(\.labels["code"]) == ["SignatureDoesNotMatch"], "\(held); log:\n\(log(device, "upload.log"))")
        #expect(try await stack.query(#"activetask_upload_queue_runs{instance="tablet-1",state="held"}"#).map(\.value) == [2])
        #expect(try await stack.query(#"activetask_upload_oldest_waiting_seconds{instance="tablet-1"}"#).map { $0.value > 0 } == [true])
        try #expect(await PrometheusStack.lint(device.metricsDirectory.appendingPathComponent("activetask-upload.prom")) == "")

        // The right secret: both arrive.
        let right = try startUploader(device, moto: moto, secret: moto.secretAccessKey)
        #expect(try await stack.waitForValue(#"activetask_uploaded_objects_total{instance="tablet-1"}"#, 2) == [2], "log:\n\(log(device, "upload.log"))")
        #expect(try await stack.waitForValue(#"activetask_upload_queue_runs{instance="tablet-1",state="held"}"#, 0) == [0])
        #expect(try await stack.query(#"activetask_uploaded_bytes_total{instance="tablet-1"}"#).map { $0.value > 1000 } == [true])
        #expect(try await stack.query(#"activetask_upload_oldest_waiting_seconds{instance="tablet-1"}"#).map(\.value) == [0])
        #expect(try await stack.query(#"activetask_build_info{instance="tablet-1"}"#).map { $0.labels["program"] ?? "" }.sorted() == ["activetask-upload", "activetaskd"])
        stop(right)
        let uploadFile = device.metricsDirectory.appendingPathComponent("activetask-upload.prom")
        try #expect(await PrometheusStack.lint(uploadFile) == "")
        let mode = try FileManager.default.attributesOfItem(atPath: uploadFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o644, "mode \(String(mode ?? 0, radix: 8)) under umask 027")

        // The daemon's file, after both runs.
        try #expect(await PrometheusStack.lint(device.metricsDirectory.appendingPathComponent("activetaskd.prom")) == "")
        #expect(try await stack.waitForValue(#"activetask_runs_total{instance="tablet-1",task="MetricsWalk",finish_reason="completed"}"#, 1) == [1])
        #expect(try await stack.waitForValue(#"sum(activetask_runs_total{instance="tablet-1"})"#, 2) == [2])
        let verdicts = try await stack.query(#"activetask_run_quality_total{instance="tablet-1",task="MetricsRoom"}"#)
        #expect(verdicts.map { $0.labels["verdict"] ?? "" } == ["failed"], "\(verdicts)")
        #expect(try await stack.query(#"activetask_run_quality_failed_streak_runs{instance="tablet-1"}"#).map(\.value) == [1])
        // Why it failed: the microphone recorder could not open its device.
        #expect(try await stack.query(#"activetask_recorder_failures_total{instance="tablet-1",recorder="roomSound"}"#).map(\.value) == [1])
        let nominal = try await stack.query(#"activetask_sensor_nominal_hertz{instance="tablet-1",recorder="motion"}"#)
        #expect(Set(nominal.map { $0.labels["sensor"] ?? "" }) == ["accelerometer", "gyro"] && nominal.allSatisfy { $0.value == 100 }, "\(nominal)")
        let delivered = try await stack.query(#"activetask_sensor_delivered_hertz{instance="tablet-1",sensor="accelerometer"}"#)
        #expect(delivered.map { abs($0.value - 100) < 5 } == [true], "\(delivered)")
        #expect(try await stack.query(#"activetask_sensor_samples_total{instance="tablet-1",sensor="accelerometer"} > 100"#).count == 1)
        #expect(try await stack.query(#"activetask_data_free_bytes{instance="tablet-1"} > 0"#).count == 1)
        #expect(try await stack.query(#"time() - activetask_last_run_end_timestamp_seconds{instance="tablet-1",task="MetricsWalk"} < 600"#).count == 1)

        // The counters survive a restart: kept beside the runs, not started again from zero
        // (the old file is removed first, so that what is read is the new daemon's).
        stop(daemon)
        try FileManager.default.removeItem(at: device.metricsDirectory.appendingPathComponent("activetaskd.prom"))
        let again = try await startDaemon(device)
        defer { stop(again) }
        let text = try String(contentsOf: device.metricsDirectory.appendingPathComponent("activetaskd.prom"), encoding: .utf8)
        #expect(text.contains(#"activetask_runs_total{task="MetricsWalk",finish_reason="completed"} 1"#), "\(text)")
    }

    /// The dashboard's panels: title → PromQL expressions (docs/fleet.md, "The dashboard").
    static func dashboardQueries() throws -> [String: [String]] {
        let url = PackagePaths.root.appendingPathComponent("prometheus/activetask-dashboard.json")
        let dashboard = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var queries: [String: [String]] = [:]
        for panel in dashboard["panels"] as? [[String: Any]] ?? [] {
            guard let title = panel["title"] as? String, let targets = panel["targets"] as? [[String: Any]] else { continue }
            queries[title] = targets.compactMap { $0["expr"] as? String }
        }
        return queries
    }

    @Test("A fleet of 10 devices on one Prometheus: the dashboard's fleet table has one row per device, the drill-down one device's series")
    func fleet() async throws {
        let names = (1...10).map { String(format: "tablet-%02d", $0) }
        let devices = try names.map { try Device(name: $0, scratch: scratch.url) }
        let moto = try await MotoServer.start(scratch: scratch.url)
        defer { moto.stop() }
        let stack = try await PrometheusStack.start(scratch: scratch.url, devices: Dictionary(uniqueKeysWithValues: devices.map { ($0.name, $0.metricsDirectory) }))
        defer { stack.stop() }
        var pids: [pid_t] = []
        defer { for pid in pids { stop(pid) } }
        for device in devices {
            pids.append(try startUploader(device, moto: moto, secret: moto.secretAccessKey))
        }
        let daemons = try await withThrowingTaskGroup(of: pid_t.self) { group in
            for device in devices { group.addTask { try await self.startDaemon(device) } }
            return try await group.reduce(into: [pid_t]()) { $0.append($1) }
        }
        pids += daemons
        // One short run on every device, all at once.
        let statuses = try await withThrowingTaskGroup(of: String.self) { group in
            for device in devices {
                group.addTask { try await self.run(Self.task("FleetWalk", seconds: 1, microphone: false), on: device)["status"] as? String ?? "none" }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: "completed", count: 10))
        // Every device's run recorded and uploaded, as Prometheus sees it.
        let uploaded = try await stack.waitFor(#"activetask_uploaded_objects_total{job="activetask"} == 1"#) { $0.count == 10 }
        #expect(uploaded.count == 10, "\(uploaded)")
        let counted = try await stack.waitFor(#"activetask_runs_total{job="activetask",task="FleetWalk",finish_reason="completed"} == 1"#) { $0.count == 10 }
        #expect(counted.count == 10, "\(counted)")

        let panels = try Self.dashboardQueries()
        let fleet = try #require(panels["Fleet"])
        #expect(fleet.count >= 6)
        for query in fleet {
            let rows = try await stack.waitFor(query) { Set($0.compactMap { $0.labels["instance"] }) == Set(names) && $0.count == 10 }
            #expect(rows.compactMap { $0.labels["instance"] }.sorted() == names, "\(query): \(rows)")
        }
        // The drill-down, for one device: only its series.
        for title in ["Sensor rate: delivered and nominal", "Upload queue by state", "Data disk free"] {
            for query in try #require(panels[title]) {
                let rows = try await stack.query(query.replacingOccurrences(of: "$instance", with: "tablet-03"))
                #expect(!rows.isEmpty && rows.allSatisfy { $0.labels["instance"] == "tablet-03" }, "\(title): \(query): \(rows)")
            }
        }
    }
}
