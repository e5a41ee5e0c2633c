import AsyncActions
import Audio
import BlockingCalls
import CodePageOut
import ControlServer
import DaemonConfig
import Foundation
import Logging
import Motion
import Quality
import Recorders
import SampleFiles
import ServiceLifecycle
import Session
import Systemd
import TaskModel
import Voice

/// The daemon stopped to be started again from a newly installed binary (`RestartWhenIdle`).
struct RestartRequested: Error {}

/// Why the daemon could not start, in a sentence that says what to do.
struct DaemonStartError: Error {
    var message: String
}

/// Composes the daemon's services (docs/service.md): recovery of interrupted runs, the control
/// server on its socket (or the one systemd passed), the task host, the watchdog and the SIGHUP
/// reloader, in one `ServiceGroup` that SIGTERM and SIGINT shut down gracefully.
struct DaemonMain {
    var configuration: DaemonConfiguration
    var loader: DaemonConfigurationLoader
    /// The embedder's types (`ActiveTaskDaemon.run(arguments:registry:)`); the configuration's
    /// `typeAliases` are applied on top.
    var registry: TypeRegistry
    var logger: Logger

    func run() async throws {
        let notifier = SystemdNotifier()
        let settings = try Self.settings(from: configuration, registry: registry, logger: logger)
        try Self.prepare(dataDirectory: settings.dataDirectory)
        // Code that ran once stays resident in a static binary: paged out when the daemon is idle
        // (docs/daemon.md, "Memory").
        let pageOut = IdleCodePageOut(quietPeriod: .seconds(3), logger: logger)
        let host = DaemonHost(settings: settings) { activity in
            pageOut.note(busy: activity != .idle)
            switch activity {
            case .idle: _ = try? notifier.status(.idle)
            case .recording(let task, let stepPath): _ = try? notifier.status(.recording(task: task, stepPath: stepPath))
            case .stopping: _ = try? notifier.stopping()
            }
        }
        let inherited: [Int32]
        do { inherited = try SocketActivation.listeningDescriptors() } catch {
            throw DaemonStartError(message: "The sockets systemd passed cannot be used: \(error)")
        }
        let listener: ControlServerConfiguration.Listener
        if let descriptor = inherited.first {
            listener = .inheritedDescriptor(descriptor)
        } else {
            try Self.prepare(socketPath: configuration.socketPath)
            listener = .path(configuration.socketPath)
        }
        let logger = logger
        let server = ControlServer(
            configuration: ControlServerConfiguration(listener: listener), handler: host, logger: logger,
            onListening: {
                _ = try? notifier.ready(status: .idle)
                logger.info("Listening", metadata: ["socket": "\(configuration.socketPath)", "activated": "\(!inherited.isEmpty)"])
            })
        var services: [any Service] = []
        var watchdogEnabled = false
        do {
            if let watchdog = try WatchdogService.fromEnvironment(notifier: notifier, logger: logger, probe: {
                ThreadHeartbeats.stalled(olderThan: .seconds(10))
            }) {
                services.append(watchdog)
                watchdogEnabled = true
            }
        } catch {
            logger.error("The watchdog cannot be used", metadata: ["error": "\(error)"])
        }
        services.append(ConfigurationReloader(loader: loader, current: configuration, registry: registry, host: host, logger: logger))
        let restart = RestartWhenIdle(host: host, logger: logger)
        // Recovery runs inside the group, before the socket opens, so that SIGTERM meanwhile is
        // a graceful stop (RecoveringControlServer).
        services += [pageOut, host, RecoveringControlServer(host: host, server: server, notifier: notifier, watchdog: watchdogEnabled, logger: logger)]
        // The restart service ending (a restart into a new version) shuts the whole group down.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
                + [ServiceGroupConfiguration.ServiceConfiguration(service: restart, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        if restart.requested.withLock({ $0 }) {
            logger.notice("Stopped for a restart into the installed version", metadata: ["exitStatus": "\(RestartWhenIdle.exitStatus)"])
            throw RestartRequested()
        }
        logger.info("Stopped")
    }

    /// The host's settings from the configuration, reading tasks with `registry` and the
    /// configuration's `typeAliases`.
    static func settings(from configuration: DaemonConfiguration, registry: TypeRegistry, logger: Logger) throws -> DaemonSettings {
        var registry = registry
        do { try registry.apply(configuration.typeAliases) } catch {
            throw DaemonStartError(message: "typeAliases: \(error)")
        }
        let devices = DaemonDevices(
            iioURI: configuration.iioURI, captureDevice: configuration.captureDevice,
            playbackDevice: configuration.playbackDevice)
        let sync = SyncPolicy(syncingEvery: configuration.syncInterval)
        let controllers = AsyncActionControllerRegistry.builtIn(
            motion: MotionDeviceSettings(iioURI: configuration.iioURI, syncPolicy: sync, gyroDelay: configuration.motion.gyroDelay),
            microphone: MicrophoneSettings(
                device: configuration.captureDevice, syncPolicy: sync,
                realTimePriority: MicrophoneSettings.capturePriority(belowPlayback: configuration.realTimePriority)))
        var voice = VoiceConfiguration(
            playbackDevice: configuration.playbackDevice, voice: configuration.voice.name,
            wordsPerMinute: configuration.voice.wordsPerMinute,
            clips: clips(in: configuration.voice.clipDirectory), holdStreamDuringRuns: configuration.voice.holdStream)
        voice.realTimePriority = configuration.realTimePriority
        return DaemonSettings(
            dataDirectory: URL(fileURLWithPath: configuration.dataDirectory),
            taskDirectory: URL(fileURLWithPath: configuration.taskDirectory), devices: devices, voice: voice,
            permissionPolicy: configuration.permissionPolicy, typeRegistry: registry,
            controllers: controllers,
            retention: configuration.retention,
            qualityThresholds: try qualityThresholds(configuration.qualityThresholds),
            metricsDirectory: configuration.metricsDirectory.isEmpty ? nil : configuration.metricsDirectory, logger: logger)
    }

    /// The `quality` object of the configuration as check thresholds (keys left out keep their
    /// defaults).
    static func qualityThresholds(_ data: Data?) throws -> QualityThresholds {
        guard let data else { return QualityThresholds() }
        do { return try JSONDecoder().decode(QualityThresholds.self, from: data) } catch {
            throw DaemonStartError(message: "quality: \(error). Use the keys docs/quality.md lists, with numbers.")
        }
    }

    /// Recorded prompt clips: `<key or text>.wav` in the clip directory.
    static func clips(in directory: String?) -> [String: String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var clips: [String: String] = [:]
        for name in names where name.hasSuffix(".wav") {
            clips[String(name.dropLast(4))] = (directory as NSString).appendingPathComponent(name)
        }
        return clips
    }

    static func prepare(dataDirectory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: dataDirectory.appendingPathComponent("runs"), withIntermediateDirectories: true)
        } catch {
            throw DaemonStartError(message: "The data directory \(dataDirectory.path) cannot be used: \(error.localizedDescription). Create it writable for this user, or pass --data-dir.")
        }
        guard FileManager.default.isWritableFile(atPath: dataDirectory.path) else {
            throw DaemonStartError(message: "The data directory \(dataDirectory.path) is not writable by this user; fix its owner or pass --data-dir.")
        }
    }

    static func prepare(socketPath: String) throws {
        let directory = (socketPath as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw DaemonStartError(message: "The socket directory \(directory) cannot be created: \(error.localizedDescription). Pass --socket with a writable place.")
        }
    }
}
