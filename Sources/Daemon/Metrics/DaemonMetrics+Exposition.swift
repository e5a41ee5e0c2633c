import Metrics

extension DaemonMetrics {
    /// What the daemon is like right now, beside the counters: the gauges read at each write.
    struct Now: Sendable, Hashable {
        var version: String
        var ready: Bool
        var recording: Bool
        var watchdog: Bool
        var dataFreeBytes: Double?
        var dataSizeBytes: Double?
    }

    /// `activetaskd.prom`'s contents (docs/fleet.md lists every family).
    func exposition(now: Now) -> MetricsExposition {
        typealias Label = MetricFamily.Label
        var out = MetricsExposition()
        out.buildInfo(program: "activetaskd", version: now.version)
        out.gauge("activetask_ready", "1 once the daemon has recovered interrupted runs and answers on its control socket.", now.ready ? 1 : 0)
        out.gauge("activetask_recording", "1 while a run is going on.", now.recording ? 1 : 0)
        out.gauge("activetask_watchdog_enabled", "1 when systemd's watchdog supervises the daemon.", now.watchdog ? 1 : 0)
        out.counter("activetask_runs_total", "Runs that ended, by task and finish reason.",
                    Self.pairs(runs, "finish_reason"))
        out.counter("activetask_run_quality_total", "Finished runs by the verdict of their quality checks.",
                    Self.pairs(quality, "verdict"))
        out.gauge("activetask_last_run_end_timestamp_seconds", "When the task's last run ended, in seconds since 1970.",
                  lastRunEnd.sorted { $0.key < $1.key }.map { ([Label("task", $0.key)], $0.value) })
        out.gauge("activetask_run_quality_failed_streak_runs", "Runs in a row whose quality verdict was failed (0 after any other verdict).",
                  Double(failedQualityStreak))
        out.counter("activetask_runs_recovered_total", "Runs a crash, kill or power cut left unfinished, recovered at start.", [([], Double(recovered))])
        out.counter("activetask_retention_removed_runs_total", "Finished runs retention removed whole.", [([], Double(retentionRemoved))])
        out.counter("activetask_retention_trimmed_runs_total", "Runs retention trimmed to their archive, waiting for its upload.", [([], Double(retentionTrimmed))])
        let sensors = self.sensors.sorted { $0.key < $1.key }.map { (Self.sensorLabels($0.key), $0.value) }
        out.gauge("activetask_sensor_delivered_hertz", "The rate the sensor delivered samples at in the last run that recorded it.",
                  sensors.compactMap { labels, sensor in sensor.deliveredHertz.map { (labels, $0) } })
        out.gauge("activetask_sensor_nominal_hertz", "The rate the sensor was set to in the last run that recorded it.",
                  sensors.compactMap { labels, sensor in sensor.nominalHertz.map { (labels, $0) } })
        out.counter("activetask_sensor_samples_total", "Samples the sensor delivered.", sensors.map { ($0.0, Double($0.1.samples)) })
        out.counter("activetask_sensor_gaps_total", "Gaps in the sensor's samples (docs/quality.md, gaps).", sensors.map { ($0.0, Double($0.1.gaps)) })
        let microphones = self.microphones.sorted { $0.key < $1.key }
        out.counter("activetask_microphone_xruns_total", "ALSA capture overruns (xruns) of the microphone recorder.",
                    microphones.map { ([Label("recorder", $0.key)], Double($0.value.xruns)) })
        out.counter("activetask_microphone_capture_failures_total", "Runs whose microphone recording failed its duration check (too little audio captured).",
                    microphones.map { ([Label("recorder", $0.key)], Double($0.value.captureFailures)) })
        out.counter("activetask_recorder_failures_total", "Runs in which the recorder failed (it could not open or lost its device).",
                    recorderFailures.sorted { $0.key < $1.key }.map { ([Label("recorder", $0.key)], Double($0.value)) })
        out.histogram("activetask_prompt_lateness_seconds", "How late each spoken prompt was heard against its schedule.", [([], promptLateness)])
        if let free = now.dataFreeBytes {
            out.gauge("activetask_data_free_bytes", "Free bytes on the data directory's file system, as an unprivileged user may use them.", free)
        }
        if let size = now.dataSizeBytes {
            out.gauge("activetask_data_size_bytes", "Size of the data directory's file system in bytes.", size)
        }
        return out
    }

    /// `[task: [value: count]]` as samples labelled `task` and `name`, sorted.
    private static func pairs(_ table: [String: [String: UInt64]], _ name: String) -> [([MetricFamily.Label], Double)] {
        table.sorted { $0.key < $1.key }.flatMap { task, counts in
            counts.sorted { $0.key < $1.key }.map { ([MetricFamily.Label("task", task), MetricFamily.Label(name, $0.key)], Double($0.value)) }
        }
    }

    /// `motion/accelerometer` → `recorder="motion", sensor="accelerometer"`.
    private static func sensorLabels(_ key: String) -> [MetricFamily.Label] {
        let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
        return [MetricFamily.Label("recorder", parts.first ?? key), MetricFamily.Label("sensor", parts.count > 1 ? parts[1] : "")]
    }
}
