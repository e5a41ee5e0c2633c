import ArgumentParser
import DaemonConfig
import Foundation
import Logging
import Systemd
import TaskModel

/// `activetaskd`'s command line (docs/service.md). Arguments override the configuration file
/// and `ACTIVETASK_*` variables (docs/configuration.md); this type only parses them and hands
/// over to `DaemonMain` (the executable has bootstrapped logging). `ActiveTaskDaemon.run(arguments:registry:)` runs it.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activetaskd",
        abstract: "Run SageResearch active tasks for a local front end over a Unix control socket.",
        // Written out: with this many options ArgumentParser would shorten it to `<options>`.
        usage: "activetaskd [--config <config>] [--socket <socket>] [--data-dir <data-dir>] [--iio-uri <iio-uri>] [<option> <value> ...]",
        // `activetaskd --version`: what the package check and a technician ask the installed
        // program (docs/install.md); the same string `daemon.info` reports.
        version: DaemonHost.version)

    @Option(help: "The configuration file (default /etc/activetask/activetaskd.json when it exists).")
    var config: String?

    @Option(help: "The control socket (default /run/activetask/control.sock).")
    var socket: String?

    @Option(name: .customLong("data-dir"), help: "Where runs are kept (default /var/lib/activetask).")
    var dataDir: String?

    @Option(name: .customLong("task-directory"), help: "Where task.load finds tasks named by a relative path.")
    var taskDirectory: String?

    @Option(name: .customLong("iio-uri"), help: "The motion sensors: local:, ip:HOST, or sim: for the simulated IMU.")
    var iioURI: String?

    @Option(name: .customLong("capture-device"), help: "The ALSA PCM the microphone records from.")
    var captureDevice: String?

    @Option(name: .customLong("playback-device"), help: "The ALSA PCM prompts are spoken on.")
    var playbackDevice: String?

    @Option(name: .customLong("voice-name"), help: "The espeak-ng voice.")
    var voiceName: String?

    @Option(name: .customLong("voice-rate"), help: "Words per minute of spoken prompts.")
    var voiceRate: Int?

    @Option(name: .customLong("motion-gyro-delay"), help: "Seconds by which the IMU's gyroscope lags its accelerometer (docs/fusion.md).")
    var motionGyroDelay: Double?

    @Option(name: .customLong("sync-interval"), help: "Seconds between forced writes of recorder files (fsync).")
    var syncInterval: Double?

    @Option(name: .customLong("real-time-priority"), help: "SCHED_FIFO priority of the voice playback thread (capture: one less), where the service allows it; 0 for none.")
    var realTimePriority: Int?

    @Option(name: .customLong("metrics-directory"), help: "Where activetaskd.prom is written for node_exporter's textfile collector (docs/fleet.md); empty for none.")
    var metricsDirectory: String?

    func run() async throws {
        try await run(registry: .standard, arguments: CommandLine.arguments)
    }

    /// Runs the daemon reading tasks with `registry`; `arguments` is the whole command line
    /// (program name first), which the configuration loader reads too.
    func run(registry: TypeRegistry, arguments: [String]) async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "activetaskd")

        // The loader reads the same options itself (with the file and the environment), so it
        // gets the arguments as given, less `--config`, which is not a setting.
        let loader = DaemonConfigurationLoader(
            filePath: config, environment: environment, arguments: Self.settingArguments(arguments), registry: registry)
        let configuration: DaemonConfiguration
        do {
            configuration = try await loader.load()
        } catch {
            FileHandle.standardError.write(Data("activetaskd: \(error)\n".utf8))
            throw ExitCode(1)
        }
        do {
            try await DaemonMain(configuration: configuration, loader: loader, registry: registry, logger: logger).run()
        } catch is RestartRequested {
            throw ExitCode(RestartWhenIdle.exitStatus)
        } catch let error as DaemonStartError {
            logger.critical("\(error.message)")
            FileHandle.standardError.write(Data("activetaskd: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The command line without `--config FILE` / `--config=FILE`.
    static func settingArguments(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == "--config" { skipNext = true; continue }
            if argument.hasPrefix("--config=") { continue }
            result.append(argument)
        }
        return result
    }
}
