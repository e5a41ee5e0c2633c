import BlockingCalls
import Clocks
public import Foundation
public import Logging
import Synchronization

/// Carries out `UploadQueue`'s actions: scans the outbox, uploads runs through
/// `ArchiveUploader`, feeds each outcome back to the machine and sleeps until the next retry or
/// poll. Each upload the machine starts (at most `parallel` at once) runs in a task of its own;
/// its outcome comes back to the actor as an event.
public actor UploadWorker {
    private var queue: UploadQueue
    private let uploader: ArchiveUploader
    private let pollSeconds: Double
    private let logger: Logger
    private var reportedUnreadable: Set<String> = []
    private var inFlight: [UUID: Task<Void, Never>] = [:]
    /// Set once `run` ends: no new upload starts while the ones under way finish.
    private var stopping = false
    /// The runs last published in `uploads/queue.json`, the snapshot waiting to be written, and
    /// whether a write is under way: writes go one at a time and the latest state is written last.
    private var publishedRuns: [UploadQueueSnapshot.Run]?
    private var snapshotToWrite: UploadQueueSnapshot?
    private var writingSnapshot = false
    /// When the scan loop last finished a pass (CLOCK_MONOTONIC seconds), for the watchdog.
    private nonisolated let lastPass = Mutex<Double>(RecordingClock.monotonic())
    /// What this process has uploaded and the failed attempts by error code, for the metrics
    /// (docs/fleet.md); they count from the process's start, as Prometheus counters may.
    public private(set) var totals = UploadTotals()

    public init(uploader: ArchiveUploader, queue: UploadQueue = UploadQueue(), pollSeconds: Double = 5, logger: Logger) {
        self.uploader = uploader
        self.queue = queue
        self.pollSeconds = pollSeconds
        self.logger = logger
    }

    /// Scans and uploads until the task is cancelled, then waits for the uploads under way (an
    /// interrupted multipart upload resumes at the next start anyway).
    public func run() async {
        while !Task.isCancelled {
            let wake = await scanOnce()
            lastPass.withLock { $0 = RecordingClock.monotonic() }
            let seconds = min(pollSeconds, max(0.05, wake.map { $0.timeIntervalSinceNow } ?? pollSeconds))
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        }
        stopping = true
        while let (_, task) = inFlight.first {
            await task.value
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
        let busy = Set(inFlight.keys)
        let scan: ([OutboxEntry], [String], [String], [URL])? = try? await BlockingCall.run("outbox scan") { () -> ([OutboxEntry], [String], [String], [URL]) in
            let (entries, unreadable) = directories.pending()
            // An encrypted copy whose run left the outbox (or was uploaded) is of no more use.
            let leftovers = directories.removeLeftoversOfRemovedRuns(except: busy)
            let removed = directories.removeEncryptedCopies(except: busy.union(entries.map(\.taskRunUUID))) + leftovers.removed
            return (entries, unreadable, removed, leftovers.departed)
        }
        let (entries, unreadable, removed, departed) = scan ?? ([], [], [], [])
        for name in removed {
            logger.info("Removed a file of a run that is no longer in the outbox.", metadata: ["file": "\(directories.uploads.path)/\(name)"])
        }
        // A run deleted before its multipart upload finished: the upload is aborted before its
        // progress file goes, so that no part of it stays billed (docs/upload.md).
        for url in departed where await uploader.abandonDeparted(progressAt: url) {
            logger.info("Removed a file of a run that is no longer in the outbox.", metadata: ["file": "\(url.path)"])
        }
        for name in unreadable where !reportedUnreadable.contains(name) {
            reportedUnreadable.insert(name)
            logger.error("An outbox entry cannot be read and is left alone; remove or repair it.", metadata: ["entry": "\(directories.outbox.path)/\(name)"])
        }
        return await perform(queue.handle(.scanned(entries, now: Date())))
    }

    /// The queue's records, for status reports.
    public var records: [UploadQueue.Record] { Array(queue.records.values) }

    /// The bytes sent of the uploads under way.
    public nonisolated var progress: UploadProgress { uploader.progress }

    /// Seconds since the scan loop last finished a pass: it finishes one at least every
    /// `pollSeconds` (uploads run beside it), so a large value means a scan or a queue write is
    /// stuck (the service's watchdog probe).
    public nonisolated func secondsSinceLastPass() -> Double {
        RecordingClock.monotonic() - lastPass.withLock { $0 }
    }

    /// One upload attempt, off the actor; its outcome as the machine's event.
    private static func attempt(_ entry: OutboxEntry, attempt: Int, uploader: ArchiveUploader, logger: Logger) async -> UploadQueue.Event {
        let metadata: Logger.Metadata = ["taskRunUUID": "\(entry.taskRunUUID)", "attempt": "\(attempt)", "key": "\(uploader.key(for: entry))"]
        logger.info("Uploading a run's archive.", metadata: metadata)
        do {
            let receipt = try await uploader.upload(entry)
            logger.notice("The run's archive is in the storage.", metadata: metadata.merging(["etag": "\(receipt.etag)", "bytes": "\(receipt.size)"]) { $1 })
            return .succeeded(entry.taskRunUUID, now: Date())
        } catch {
            return .failed(entry.taskRunUUID, error, now: Date(), jitter: Double.random(in: 0..<1))
        }
    }

    /// An upload ended: the machine decides what follows (state is re-read there, after the await).
    private func finished(_ id: UUID, _ event: UploadQueue.Event) async {
        inFlight[id] = nil
        totals.count(event, size: queue.records[id]?.entry.size)
        await perform(queue.handle(event))
    }

    @discardableResult
    private func perform(_ actions: [UploadQueue.Action]) async -> Date? {
        var pending = actions
        var wake: Date?
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .upload(let entry, let attempt):
                guard !stopping else { continue }
                let uploader = uploader, logger = logger
                inFlight[entry.taskRunUUID] = Task {
                    let event = await Self.attempt(entry, attempt: attempt, uploader: uploader, logger: logger)
                    await self.finished(entry.taskRunUUID, event)
                }
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
        await publishSnapshot()
        return wake
    }

    /// Writes the queue to `uploads/queue.json` for `activetaskctl uploads` when a run's state
    /// changed. A write is off the actor; changes made meanwhile are written after it, in order.
    private func publishSnapshot() async {
        let snapshot = UploadQueueSnapshot(records: queue.records.values, now: Date())
        guard snapshot.runs != publishedRuns else { return }
        publishedRuns = snapshot.runs
        snapshotToWrite = snapshot
        guard !writingSnapshot else { return }
        writingSnapshot = true
        let directories = uploader.directories
        while let next = snapshotToWrite {
            snapshotToWrite = nil
            do {
                try await BlockingCall.run("queue snapshot") { try directories.write(next, to: directories.queueSnapshot) }
            } catch {
                logger.warning("The queue's state could not be written for activetaskctl uploads.", metadata: [
                    "file": "\(directories.queueSnapshot.path)", "error": "\(error)",
                ])
            }
        }
        writingSnapshot = false
    }
}
