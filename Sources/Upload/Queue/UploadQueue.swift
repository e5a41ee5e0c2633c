public import Foundation

/// The upload queue as a plain state machine (docs/upload.md, "The queue"): events in, actions
/// out, no I/O. `UploadWorker` carries the actions out and feeds their outcomes back.
///
/// Each run is `waiting` (possibly until a retry time), `uploading`, `held` with its reason
/// (until a reload or `RetryPolicy.heldSeconds`) or `uploaded`. At most `parallel` uploads run
/// at once, oldest run first.
public struct UploadQueue: Sendable {
    public enum State: Sendable, Hashable {
        case waiting(notBefore: Date?)
        case uploading
        case held(until: Date)
        case uploaded
    }

    /// One run in the queue.
    public struct Record: Sendable, Hashable {
        public var entry: OutboxEntry
        public var state: State
        /// Failed attempts so far.
        public var failures: Int
        public var lastFailure: UploadFailure?
    }

    public enum Event: Sendable, Hashable {
        /// The outbox as it is now (entries already uploaded left out).
        case scanned([OutboxEntry], now: Date)
        /// Time passed (a wake-up or a poll).
        case tick(now: Date)
        case succeeded(UUID, now: Date)
        /// `jitter` in [0, 1), drawn by the worker so the machine stays deterministic.
        case failed(UUID, UploadFailure, now: Date, jitter: Double)
        /// The configuration was reloaded: held runs are tried again now.
        case reloaded(now: Date)
    }

    public enum Action: Sendable, Hashable {
        /// Upload the run (attempt counts from 1).
        case upload(OutboxEntry, attempt: Int)
        /// Record that the storage holds the run's archive.
        case confirm(OutboxEntry)
        /// The attempt failed and is tried again at `retryAt`.
        case retry(OutboxEntry, UploadFailure, retryAt: Date)
        /// The run is held with its reason until `until` or a reload.
        case hold(OutboxEntry, UploadFailure, until: Date)
        /// Nothing to do before `at` (the earliest retry).
        case wake(at: Date)
    }

    public private(set) var records: [UUID: Record] = [:]
    public var parallel: Int
    public var retry: RetryPolicy

    public init(parallel: Int = 1, retry: RetryPolicy = RetryPolicy()) {
        self.parallel = max(1, parallel)
        self.retry = retry
    }

    public mutating func handle(_ event: Event) -> [Action] {
        var actions: [Action] = []
        let now: Date
        switch event {
        case .scanned(let entries, let time):
            now = time
            let present = Set(entries.map(\.taskRunUUID))
            for entry in entries where records[entry.taskRunUUID] == nil {
                records[entry.taskRunUUID] = Record(entry: entry, state: .waiting(notBefore: nil), failures: 0)
            }
            // An entry taken out of the outbox (the run was deleted by hand) leaves the queue,
            // unless an upload of it is under way; that one ends first.
            for (id, record) in records where !present.contains(id) && record.state != .uploading {
                records[id] = nil
            }
        case .tick(let time):
            now = time
        case .succeeded(let id, let time):
            now = time
            if var record = records[id], record.state == .uploading {
                record.state = .uploaded
                record.lastFailure = nil
                records[id] = record
                actions.append(.confirm(record.entry))
            }
        case .failed(let id, let failure, let time, let jitter):
            now = time
            if var record = records[id], record.state == .uploading {
                record.failures += 1
                record.lastFailure = failure
                let delay = retry.delay(afterFailures: record.failures, failure: failure, jitter: jitter)
                let until = time.addingTimeInterval(delay)
                if failure.kind == .held {
                    record.state = .held(until: until)
                    actions.append(.hold(record.entry, failure, until: until))
                } else {
                    record.state = .waiting(notBefore: until)
                    actions.append(.retry(record.entry, failure, retryAt: until))
                }
                records[id] = record
            }
        case .reloaded(let time):
            now = time
            for (id, record) in records {
                if case .held = record.state { records[id]?.state = .waiting(notBefore: nil) }
            }
        }
        // Held runs whose pause is over wait like the others.
        for (id, record) in records {
            if case .held(let until) = record.state, until <= now { records[id]?.state = .waiting(notBefore: nil) }
        }
        actions += startUploads(now: now)
        if let wake = nextWake(after: now) { actions.append(.wake(at: wake)) }
        return actions
    }

    private mutating func startUploads(now: Date) -> [Action] {
        var running = records.values.filter { $0.state == .uploading }.count
        let ready = records.values.filter { record in
            if case .waiting(let notBefore) = record.state { return (notBefore ?? now) <= now }
            return false
        }.sorted { OutboxEntry.queuedBefore($0.entry, $1.entry) }
        var actions: [Action] = []
        for record in ready where running < parallel {
            records[record.entry.taskRunUUID]?.state = .uploading
            running += 1
            actions.append(.upload(record.entry, attempt: record.failures + 1))
        }
        return actions
    }

    private func nextWake(after now: Date) -> Date? {
        records.values.compactMap { record -> Date? in
            switch record.state {
            case .waiting(let notBefore?) where notBefore > now: notBefore
            case .held(let until) where until > now: until
            default: nil
            }
        }.min()
    }

    /// How many runs wait (retries included), are held, are uploading.
    public var counts: (waiting: Int, held: Int, uploading: Int) {
        var counts = (waiting: 0, held: 0, uploading: 0)
        for record in records.values {
            switch record.state {
            case .waiting: counts.waiting += 1
            case .held: counts.held += 1
            case .uploading: counts.uploading += 1
            case .uploaded: break
            }
        }
        return counts
    }
}
