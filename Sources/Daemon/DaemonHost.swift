import AsyncActions
import BlockingCalls
import Clocks
public import ControlProtocol
public import ControlServer
import Foundation
import Logging
import Quality
public import ServiceLifecycle
import Synchronization
import Session
import TaskModel
import Voice

/// The daemon behind the control socket (docs/protocol.md): it loads tasks, runs one task
/// session at a time, answers every command, and turns session events into socket events.
///
/// A `Service`: `run()` carries the time-driven work of each session for the daemon's life;
/// on graceful shutdown the running session is interrupted (recorders stop and keep their
/// files, the run is finished as `interrupted` with its results and archive).
public actor DaemonHost: ControlHandler, Service {
    /// The daemon's version (`daemon.info`, `activetask_build_info`).
    static let version = "0.2.0"

    struct Loaded {
        var task: TaskDefinition
        var origin: String
    }

    struct Started: Sendable {
        var session: TaskSession
        var events: SessionEvents
    }

    private(set) var settings: DaemonSettings {
        didSet { publish() }
    }
    let store: RunStore
    let logger: Logger
    let startUptime = RecordingClock.uptime()
    private let onActivity: @Sendable (DaemonActivity) -> Void
    private let wire: AsyncStream<ControlEvent>
    private let wireContinuation: AsyncStream<ControlEvent>.Continuation
    private let started: AsyncStream<Started>
    private let startedContinuation: AsyncStream<Started>.Continuation
    private var sequence: UInt64 = 0
    /// A run's quality report, from the event just before its taskFinished.
    private var lastQuality: (any RunQualityReport)?
    var loaded: Loaded? {
        didSet { publish() }
    }
    /// Set only by `launch`, which then resets `view`: that one publishes both at once.
    private(set) var session: TaskSession?
    private(set) var view = RunView() {
        didSet { publish() }
    }
    /// The current session's last event applied to `view` (its sequence), whether its events
    /// have ended, and the commands waiting for a later one (`settledStatus`).
    var appliedEvents = SequenceGate()
    /// Whether `run()` runs, so that the sessions' events are being applied at all (a host
    /// driven without its service, as the fuzz target does, answers from the snapshot as it is).
    var consumingEvents = false
    /// What `daemon.info` and `run.status` read without waiting for the actor; written only here.
    private let published: Mutex<DaemonSnapshot>
    var voice: VoicePrompter?
    private var voiceUnavailable = false
    /// Whether new runs may start: not once the daemon is stopping, nor once it was asked to
    /// restart into a newly installed version when no run records (SIGUSR2; docs/install.md,
    /// "Upgrades").
    var admission: RunAdmission = .open
    /// How long the event task waits before applying each session event: zero in the daemon; a
    /// test in this package sets it (`holdEventsBack(by:)`) to show that command answers do not
    /// depend on when that task gets to run.
    private var eventHoldBack: Duration = .zero
    /// The metrics counters (docs/fleet.md), read from the data directory at their first use.
    var metrics = DaemonMetrics()
    var metricsLoaded = false
    /// Whether a write of the metrics file is under way, and whether another (keeping the
    /// counters too, with `persist`) is wanted after it: writes go one at a time, each of the
    /// state when it starts, so the last state is the one written last.
    var metricsWrites = (writing: false, pending: false, persist: false)
    /// Whether recovery is done and the socket is served, and whether systemd's watchdog is on.
    var isReady = false
    var watchdogEnabled = false

    public init(settings: DaemonSettings, onActivity: @escaping @Sendable (DaemonActivity) -> Void = { _ in }) {
        self.settings = settings
        logger = settings.logger
        store = RunStore(dataDirectory: settings.dataDirectory, logger: settings.logger)
        // An inline task's folder lives for its load only; one left by a stop mid-load goes.
        InlineTaskFolder(dataDirectory: settings.dataDirectory).removeStale()
        self.onActivity = onActivity
        published = Mutex(DaemonSnapshot(
            dataDirectory: settings.dataDirectory.path, devices: settings.devices))
        (wire, wireContinuation) = AsyncStream.makeStream(of: ControlEvent.self, bufferingPolicy: .bufferingNewest(4096))
        (started, startedContinuation) = AsyncStream.makeStream(of: Started.self)
    }

    // MARK: Service

    /// Runs each session's time-driven work and forwards its events until graceful shutdown.
    public func run() async throws {
        let started = started
        let continuation = startedContinuation
        consumingEvents = true
        // The metrics file's periodic rewrite (docs/fleet.md) lives as long as the sessions do.
        await withTaskGroup(of: Void.self) { metrics in
            metrics.addTask { [weak self] in await self?.writeMetricsPeriodically() }
            await withDiscardingTaskGroup { group in
                await withGracefulShutdownHandler {
                    for await run in started {
                        group.addTask { await run.session.run() }
                        let holdBack = eventHoldBack
                        group.addTask { [weak self] in
                            var finished: (reason: FinishReason, directory: URL)?
                            for await event in run.events {
                                if holdBack > .zero { try? await Task.sleep(for: holdBack) }
                                await self?.forward(event, of: run.session)
                                if case .taskFinished(let reason, let directory, _) = event.kind {
                                    finished = (reason, directory)
                                    break
                                }
                            }
                            run.events.cancel()
                            await self?.eventsEnded(of: run.session)
                            if let finished { await self?.recordFinishedRun(directory: finished.directory, reason: finished.reason) }
                            await self?.pruneRuns()
                        }
                    }
                } onGracefulShutdown: { [onActivity] in
                    onActivity(.stopping)
                    continuation.finish()
                }
                // Shutting down: a run still going is interrupted, not lost.
                admission = .shuttingDown
                if let session { await session.interrupt() }
            }
            metrics.cancelAll()
        }
        stopSettling()
        wireContinuation.finish()
    }

    /// Applies each session event of the sessions started from now on `duration` late (tests).
    package func holdEventsBack(by duration: Duration) {
        eventHoldBack = duration
    }

    /// How many runs a crash or kill left unfinished (`running` in their manifest): what
    /// `recoverInterruptedRuns()` is about to recover, for the STATUS= line said meanwhile.
    public func interruptedRunCount() async -> Int {
        await runSummaries().filter { $0.status == .running }.count
    }

    /// Recovers the runs a crash or kill left unfinished; returns how many. Called at start,
    /// before the socket says it is ready.
    public func recoverInterruptedRuns(shouldStop: @escaping @Sendable () -> Bool = { false }) async -> Int {
        let store = store
        // The configured thresholds, as a finished run's checks use.
        let quality = QualityChecks(thresholds: settings.qualityThresholds)
        let reports = (try? await BlockingCall.run("run-recovery") { store.recoverInterruptedRuns(quality: quality, shouldStop: shouldStop) }) ?? []
        await recordRecoveredRuns(reports.map(\.directory))
        for report in reports {
            logger.warning("Recovered an interrupted run", metadata: [
                "taskRunUUID": "\(report.taskRunUUID)", "repairs": "\(report.repairs.count)",
                "problems": "\(report.problems.joined(separator: " "))",
            ])
        }
        await pruneRuns()
        return reports.count
    }

    /// Takes a reloaded configuration (SIGHUP): devices, voice, permissions, type aliases and
    /// retention apply from the next run on; the data directory stays as it was.
    public func update(_ new: DaemonSettings) {
        var new = new
        new.dataDirectory = settings.dataDirectory
        if new.voice != settings.voice {
            voice = nil
            voiceUnavailable = false
        }
        settings = new
    }

    // MARK: Published state

    /// The state `daemon.info` and `run.status` show, as last published.
    nonisolated var snapshot: DaemonSnapshot { published.withLock { $0 } }

    /// Publishes what the actor holds now; called after every change to it.
    private func publish() {
        let snapshot = DaemonSnapshot(
            loadedTaskIdentifier: loaded?.task.identifier, session: session, view: view,
            dataDirectory: settings.dataDirectory.path, devices: settings.devices)
        published.withLock { $0 = snapshot }
    }

    // MARK: ControlHandler

    public nonisolated func events() -> AsyncStream<ControlEvent> { wire }

    nonisolated func info() -> DaemonInfo {
        snapshot.info(pid: Int(getpid()), uptime: RecordingClock.uptime() - startUptime, version: Self.version)
    }

    // MARK: Events

    func forward(_ event: SessionEvent, of source: TaskSession) {
        // Whatever the event, the view now holds everything up to it.
        defer { if source === session { applied(event.sequence) } }
        if case .qualityChecked(let report) = event.kind {
            lastQuality = report
            return
        }
        let quality: (any RunQualityReport)?
        if case .taskFinished = event.kind { quality = lastQuality; lastQuality = nil } else { quality = nil }
        guard let payload = SessionEventTranslation.payload(of: event.kind, taskRunUUID: source.taskRunUUID, quality: quality) else { return }
        if source === session { view.apply(payload, uptime: event.uptime) }
        sequence += 1
        wireContinuation.yield(ControlEvent(
            sequence: sequence, uptime: event.uptime, payload: payload, taskRunUUID: source.taskRunUUID.uuidString))
        switch payload {
        case .stepShown(let shown):
            onActivity(.recording(task: source.task.identifier, stepPath: shown.stepPath))
        case .taskFinished:
            onActivity(.idle)
        default:
            break
        }
    }

    /// Hands a new session to `run()`; its events are subscribed to before it starts.
    func launch(_ session: TaskSession) {
        self.session = session
        startSettling()
        view = RunView()  // publishes the new session with its empty view
        startedContinuation.yield(Started(session: session, events: session.events.subscribe()))
    }

    /// Applies the retention policy (after each run).
    func pruneRuns() async {
        guard let retention = settings.retention else { return }
        let store = store
        do {
            let report = try await BlockingCall.run("run-retention") { try store.prune(retention) }
            logger.debug("Old runs pruned", metadata: ["report": "\(report)"])
            await recordRetention(removed: report.removed.count, trimmed: report.trimmed.count)
        } catch {
            logger.warning("Old runs could not be pruned", metadata: ["error": "\(error)"])
        }
    }

    /// The shared voice prompter, opened with the first run; nil (silent) when the playback
    /// device cannot be opened, which is said once.
    func voicePrompter() async -> VoicePrompter? {
        if let voice { return voice }
        guard let configuration = settings.voice, !voiceUnavailable else { return nil }
        do {
            let prompter = try await VoicePrompter(configuration: configuration, logger: logger)
            // Re-check after the await: another start may have opened one meanwhile.
            if let voice { return voice }
            voice = prompter
            return prompter
        } catch {
            voiceUnavailable = true
            logger.error("Voice prompts are off: the playback device cannot be opened", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
