public import ArgumentParser
import CodePageOut
import Foundation
import Logging
import ServiceLifecycle
import Systemd
import Upload

/// `activetask-upload`'s command line (docs/upload.md): `--config` and every setting as a
/// dash-case option; this type parses them, bootstraps logging and runs the outbox service.
public struct UploadCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "activetask-upload",
        abstract: "Upload finished runs' archives from the data directory's outbox to S3-compatible storage or through a study server's presigned URLs.",
        discussion: "Every setting of docs/upload.md is also an option: --s3-bucket NAME, --multipart-threshold BYTES, …")

    @Option(help: "The configuration file (default /etc/activetask/upload.json when it exists).")
    var config: String?

    @Option(name: .customLong("data-dir"), help: "The daemon's data directory (default /var/lib/activetask).")
    var dataDir: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settingArguments: [String] = []

    public init() {}

    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap(SystemLogging.handlerFactory(identifier: "activetask-upload", destination: SystemLogging.destination(environment: environment)))
        let logger = Logger(label: "activetask-upload")
        let loader = UploadSettingsLoader(file: config, environment: environment,
                                          arguments: settingArguments + (dataDir.map { ["--data-directory", $0] } ?? []))
        let settings: UploadSettings
        let secret: String
        do {
            settings = try loader.load()
            // The S3 secret access key, or the study server's token.
            secret = settings.target == "presigned" ? try loader.presignedToken(for: settings) : try loader.secretAccessKey(for: settings)
        } catch {
            FileHandle.standardError.write(Data("activetask-upload: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let worker = try UploadService.worker(settings: settings, secret: secret, logger: logger)
        // Code that ran once (start-up, the uploads just finished) need not stay in memory while
        // the uploader waits: paged out 1 s after it falls idle (docs/upload.md, "Memory").
        let pageOut = IdleCodePageOut(quietPeriod: .seconds(1), logger: logger)
        let service = UploadService(worker: worker, pageOut: pageOut, metricsDirectory: settings.metricsDirectory, logger: logger)
        var services: [any Service] = []
        do {
            // First in the group, so it keeps pinging while the uploads under way finish at a stop.
            let limit = max(60, 4 * settings.pollSeconds)
            if let watchdog = try WatchdogService.fromEnvironment(logger: logger, probe: { UploadService.stuck(worker, limit: limit) }) {
                services.append(watchdog)
            }
        } catch {
            logger.error("The watchdog cannot be used", metadata: ["error": "\(error)"])
        }
        services.append(pageOut)
        services.append(service)
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }
}
