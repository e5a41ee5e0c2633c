import BlockingCalls
import Foundation
import Metrics
import Quality
import Session
import SystemCalls

/// `activetaskd.prom` (docs/fleet.md): the counters are updated on the actor after each run,
/// recovery and retention pass; the file is written off it, by a blocking call, never from
/// the recording path.
extension DaemonHost {
    /// How often the file is rewritten while nothing happens, so that free space and the
    /// file's own age stay current.
    static let metricsInterval: Duration = .seconds(60)

    /// The metrics file, or nil when metrics are off (no directory configured).
    var metricsFile: MetricsTextFile? {
        settings.metricsDirectory.map { MetricsTextFile(directory: $0, fileName: "activetaskd.prom") }
    }

    /// Counts a finished run from its directory: its manifest (task, end, prompts), its `qc.json`.
    func recordFinishedRun(directory: URL, reason: FinishReason) async {
        guard metricsFile != nil else { return }
        await loadMetrics()
        let read = try? await BlockingCall.run("metrics-run") { () throws -> (String, Date, [Double], QualityReport?) in
            let run = RunDirectory(url: directory, taskRunUUID: UUID(uuidString: directory.lastPathComponent) ?? UUID())
            let manifest = try run.readManifest()
            let lateness = manifest.prompts.compactMap { prompt in prompt.spokenUptime.map { $0 - prompt.scheduledUptime } }
            let quality = try? JSONDecoder().decode(QualityReport.self, from: Data(contentsOf: directory.appendingPathComponent(QualityReport.fileName)))
            return (manifest.taskIdentifier, manifest.results.endDate, lateness, quality)
        }
        guard let (task, endDate, lateness, quality) = read else {
            logger.warning("A finished run is not counted in the metrics: its manifest cannot be read", metadata: ["directory": "\(directory.path)"])
            return
        }
        metrics.recordRun(task: task, reason: reason, endDate: endDate, quality: quality, lateness: lateness)
        await writeMetrics(persist: true)
    }

    /// Counts runs recovered at start and retention's removals.
    func recordRecoveredRuns(_ directories: [URL]) async {
        guard metricsFile != nil, !directories.isEmpty else { return }
        await loadMetrics()
        metrics.recovered += UInt64(directories.count)
        for directory in directories { await recordFinishedRun(directory: directory, reason: .interrupted) }
    }

    func recordRetention(removed: Int, trimmed: Int) async {
        guard metricsFile != nil, removed + trimmed > 0 else { return }
        await loadMetrics()
        metrics.retentionRemoved += UInt64(removed)
        metrics.retentionTrimmed += UInt64(trimmed)
        await writeMetrics(persist: true)
    }

    /// Reads the kept counters once (a daemon that never writes metrics never reads them).
    func loadMetrics() async {
        guard !metricsLoaded else { return }
        let directory = settings.dataDirectory
        do {
            let kept = try await BlockingCall.run("metrics-read") { try DaemonMetrics.read(from: directory) }
            // Re-checked after the await: another caller may have loaded them meanwhile.
            guard !metricsLoaded else { return }
            metrics = kept
        } catch {
            guard !metricsLoaded else { return }
            logger.warning("The kept metrics counters cannot be read; they start again from zero", metadata: [
                "file": "\(directory.appendingPathComponent(DaemonMetrics.fileName).path)", "error": "\(error)"])
        }
        metricsLoaded = true
    }

    /// Writes `activetaskd.prom` (and, with `persist`, the counters beside the runs). Nothing
    /// when metrics are off or their directory does not exist. A write asked for while one is
    /// under way follows it, with the state as it is then (`metricsWrites`).
    func writeMetrics(persist: Bool = false) async {
        guard metricsFile != nil else { return }
        await loadMetrics()
        metricsWrites.pending = true
        metricsWrites.persist = metricsWrites.persist || persist
        guard !metricsWrites.writing else { return }
        metricsWrites.writing = true
        while metricsWrites.pending {
            let persist = metricsWrites.persist
            metricsWrites.pending = false
            metricsWrites.persist = false
            await writeMetricsOnce(persist: persist)
        }
        metricsWrites.writing = false
    }

    /// One write of the state as it is now, off the actor.
    private func writeMetricsOnce(persist: Bool) async {
        guard let file = metricsFile else { return }
        let counters = metrics
        let dataDirectory = settings.dataDirectory
        let now = DaemonMetrics.Now(
            version: Self.version, ready: isReady, recording: session != nil && !appliedEvents.isEnded,
            watchdog: watchdogEnabled, dataFreeBytes: nil, dataSizeBytes: nil)
        do {
            try await BlockingCall.run("metrics-write") { () throws in
                var now = now
                let space = try? FileManager.default.attributesOfFileSystem(forPath: dataDirectory.path)
                now.dataFreeBytes = (space?[.systemFreeSize] as? NSNumber)?.doubleValue
                now.dataSizeBytes = (space?[.systemSize] as? NSNumber)?.doubleValue
                guard try file.write(counters.exposition(now: now)) else { return }
                if persist {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    let data = try encoder.encode(counters)
                    try data.withUnsafeBytes { try DurableFile.write($0, to: dataDirectory.appendingPathComponent(DaemonMetrics.fileName).path) }
                }
            }
        } catch {
            logger.warning("The metrics file cannot be written", metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
    }

    /// Says the daemon is ready (it answers on its socket) and whether systemd's watchdog
    /// supervises it, and writes the file.
    public func markReady(watchdog: Bool) async {
        isReady = true
        watchdogEnabled = watchdog
        await writeMetrics()
    }

    /// Rewrites the file every `metricsInterval` until the task is cancelled (a reload may
    /// turn metrics on or move them: each write reads the setting anew).
    func writeMetricsPeriodically() async {
        while !Task.isCancelled {
            await writeMetrics()
            do { try await Task.sleep(for: Self.metricsInterval) } catch { return }
        }
    }
}
