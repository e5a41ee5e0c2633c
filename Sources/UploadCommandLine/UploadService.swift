import BlockingCalls
import CodePageOut
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Systemd
import UnixSignals
import Upload

/// The outbox service: polls `<data-dir>/outbox/` and uploads what it finds (docs/upload.md);
/// SIGHUP tries held runs again; systemd hears readiness and the queue in `STATUS=`.
struct UploadService: Service {
    let worker: UploadWorker
    /// Told when uploads start and end, so that the code is paged out while none runs.
    let pageOut: IdleCodePageOut
    /// Where `activetask-upload.prom` goes (docs/fleet.md); empty for no metrics.
    let metricsDirectory: String
    let logger: Logger

    /// How often the metrics file is rewritten when the queue has not changed, so that the
    /// oldest waiting run's age stays current.
    static let metricsInterval: Duration = .seconds(60)

    /// What the watchdog probe reports stuck: the scan loop when it has not finished a pass for
    /// `limit` seconds (it finishes one every `pollSeconds`; transfers run beside it and end on
    /// libcurl's own stall and connect time-outs).
    static func stuck(_ worker: UploadWorker, limit: Double) -> [String] {
        worker.secondsSinceLastPass() > limit ? ["the outbox scan loop"] : []
    }

    /// The worker for the configured target; `secret` is the S3 secret access key or the study
    /// server's token.
    static func worker(settings: UploadSettings, secret: String, logger: Logger) throws -> UploadWorker {
        var transfer = TransferSettings()
        transfer.caFile = settings.caFile
        transfer.maxBytesPerSecond = settings.maxBytesPerSecond
        transfer.stallSeconds = settings.stallSeconds
        let target: UploadTarget
        if settings.target == "presigned", let url = settings.presignedURL {
            target = .presigned(StudyServerClient(url: url, token: secret, transfer: transfer))
        } else {
            guard let location = S3Location(endpoint: settings.s3Endpoint, bucket: settings.s3Bucket, region: settings.s3Region,
                                             pathStyle: settings.s3PathStyle) else {
                throw UploadSettingsLoader.Problems(problems: ["s3.endpoint \"\(settings.s3Endpoint)\" is not an http:// or https:// URL with a host."])
            }
            target = .s3(S3Client(location: location, credentials: S3Credentials(accessKeyID: settings.s3AccessKeyID, secretAccessKey: secret),
                                  transfer: transfer, logger: logger))
        }
        let uploader = ArchiveUploader(
            target: target, keyTemplate: try ObjectKeyTemplate(settings.s3KeyTemplate), study: settings.study, device: settings.device,
            directories: UploadDirectories(dataDirectory: URL(fileURLWithPath: settings.dataDirectory)),
            multipartThreshold: settings.multipartThreshold, partSize: settings.partSize,
            // A speed limit is per transfer: parts in parallel would multiply it.
            partsInParallel: settings.maxBytesPerSecond == nil ? settings.partsInParallel : 1,
            encryption: settings.encryptionCertificate.map { ArchiveEncryption(certificateFile: $0) }, logger: logger)
        return UploadWorker(uploader: uploader, queue: UploadQueue(parallel: settings.parallel), pollSeconds: settings.pollSeconds, logger: logger)
    }

    func run() async throws {
        let notifier = SystemdNotifier()
        _ = try? notifier.ready(status: .custom("watching the outbox"))
        logger.info("Watching the outbox.")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            group.addTask {
                for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
                    logger.notice("Reload: held uploads are tried again.")
                    await worker.reload()
                }
            }
            group.addTask {
                var shown = ""
                while !Task.isCancelled {
                    let line = UploadStatusLine.text(records: await worker.records, transfers: Array(worker.progress.current.values))
                    if line != shown {
                        shown = line
                        _ = try? notifier.status(.custom(line))
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            group.addTask {
                // Uploads starting and ending, as the page-out service needs them (it pages the
                // code out once the uploader has been idle for its quiet period).
                var wasBusy = false
                while !Task.isCancelled {
                    let busy = await worker.records.contains { $0.state == .uploading }
                    if busy != wasBusy { pageOut.note(busy: busy) }
                    wasBusy = busy
                    try? await Task.sleep(for: .seconds(2))
                }
            }
            if !metricsDirectory.isEmpty {
                group.addTask { await writeMetrics(to: MetricsTextFile(directory: metricsDirectory, fileName: UploadMetrics.fileName)) }
            }
            try? await gracefulShutdown()
            _ = try? notifier.stopping()
            group.cancelAll()
        }
    }

    /// Writes the metrics file when the queue or the totals change (looked at every second)
    /// and at least every `metricsInterval`, off the actor, until cancelled.
    func writeMetrics(to file: MetricsTextFile) async {
        var written: (records: [UploadQueue.Record], totals: UploadTotals)?
        var writtenAt = ContinuousClock.now
        while !Task.isCancelled {
            let records = await worker.records.sorted { $0.entry.taskRunUUID.uuidString < $1.entry.taskRunUUID.uuidString }
            let totals = await worker.totals
            if written.map({ $0.records != records || $0.totals != totals }) ?? true || ContinuousClock.now - writtenAt >= Self.metricsInterval {
                let exposition = UploadMetrics.exposition(records: records, totals: totals, now: Date())
                do {
                    try await BlockingCall.run("metrics-write") { try file.write(exposition) }
                } catch {
                    logger.warning("The metrics file cannot be written", metadata: ["file": "\(file.path)", "error": "\(error)"])
                }
                written = (records, totals)
                writtenAt = ContinuousClock.now
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
