public import Foundation
public import UploadFormats

extension UploadQueueSnapshot {
    /// The queue's records as they are at `now`.
    public init(records: some Sequence<UploadQueue.Record>, now: Date) {
        self.init(updated: AmzDate.iso8601(now),
                  runs: records.sorted { OutboxEntry.queuedBefore($0.entry, $1.entry) }.map { Self.run($0) })
    }

    private static func run(_ record: UploadQueue.Record) -> Run {
        let (state, next): (String, Date?) = switch record.state {
        case .waiting(let notBefore): ("waiting", notBefore)
        case .uploading: ("uploading", nil)
        case .held(let until): ("held", until)
        case .uploaded: ("uploaded", nil)
        }
        return Run(taskRunUUID: record.entry.taskRunUUID, taskIdentifier: record.entry.taskIdentifier,
                   archive: record.entry.archive, size: record.entry.size, state: state, attempts: record.failures,
                   lastErrorCode: record.lastFailure?.code, lastError: record.lastFailure?.message,
                   nextTry: next.map(AmzDate.iso8601))
    }
}
