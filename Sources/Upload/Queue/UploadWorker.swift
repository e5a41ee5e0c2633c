import BlockingCalls
public import Foundation
public import Logging

/// Carries out `UploadQueue`'s actions: scans the outbox, uploads runs through
/// `ArchiveUploader`, feeds each outcome back to the machine and sleeps until the next retry or
/// poll. One upload at a time for now (`parallel` is honoured by the machine; the worker runs
/// the uploads it starts one after another).
public actor UploadWorker {
    private var queue: UploadQueue
    private let uploader: ArchiveUploader
    private let pollSeconds: Double
    private let logger: Logger
    private var reportedUnreadable: Set<String> = []

    public init(uploader: ArchiveUploader, queue: UploadQueue = UploadQueue(), pollSeconds: Double = 5, logger: Logger) {
        self.uploader = uploader
        self.queue = queue
        self.pollSeconds = pollSeconds
        self.logger = logger
    }

    /// Scans and uploads until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            let wake = await scanOnce()
            let seconds = min(pollSeconds, max(0.05, wake.map { $0.timeIntervalSinceNow } ?? pollSeconds))
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        }
    }

    /// Held runs are tried again now (a configuration reload).
    public func reload() async {
        await perform(queue.handle(.reloaded(now: Date())))
    }

    /// One pass: the outbox scanned, every ready upload carried out. Returns the next retry time.
    @discardableResult
    public func scanOnce() async -> Date? {
        let directories = uploader.directories
        let (entries, unreadable) = (try? await BlockingCall.run("outbox scan") { directories.pending() }) ?? ([], [])
        for name in unreadable where !reportedUnreadable.contains(name) {
            reportedUnreadable.insert(name)
            logger.error("An outbox entry cannot be read and is left alone; remove or repair it.", metadata: ["entry": "\(directories.outbox.path)/\(name)"])
        }
        return await perform(queue.handle(.scanned(entries, now: Date())))
    }

    /// The queue's records, for status reports.
    public var records: [UploadQueue.Record] { Array(queue.records.values) }

    @discardableResult
    private func perform(_ actions: [UploadQueue.Action]) async -> Date? {
        var pending = actions
        var wake: Date?
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .upload(let entry, let attempt):
                let metadata: Logger.Metadata = ["taskRunUUID": "\(entry.taskRunUUID)", "attempt": "\(attempt)", "key": "\(uploader.key(for: entry))"]
                logger.info("Uploading a run's archive.", metadata: metadata)
                let event: UploadQueue.Event
                do {
                    let receipt = try await uploader.upload(entry)
                    logger.notice("The run's archive is in the storage.", metadata: metadata.merging(["etag": "\(receipt.etag)", "bytes": "\(receipt.size)"]) { $1 })
                    event = .succeeded(entry.taskRunUUID, now: Date())
                } catch {
                    event = .failed(entry.taskRunUUID, error, now: Date(), jitter: Double.random(in: 0..<1))
                }
                // State is re-read from the machine after the await: the outcome is an event.
                pending += queue.handle(event)
            case .confirm:
                break
            case .retry(let entry, let failure, let retryAt):
                logger.warning("The upload failed and is tried again later.", metadata: [
                    "taskRunUUID": "\(entry.taskRunUUID)", "code": "\(failure.code)", "reason": "\(failure.message)",
                    "retryAt": "\(AmzDate.iso8601(retryAt))",
                ])
            case .hold(let entry, let failure, let until):
                logger.error("The upload is held: \(failure.message)", metadata: [
                    "taskRunUUID": "\(entry.taskRunUUID)", "code": "\(failure.code)", "until": "\(AmzDate.iso8601(until))",
                ])
            case .wake(let at):
                wake = at
            }
        }
        return wake
    }
}
