import Logging
import Synchronization

/// Keeps every log record (message and metadata) so that a test can check what was logged.
struct RecordingLogHandler: LogHandler {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    final class Store: Sendable {
        let records = Mutex<[Record]>([])
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let record = Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
        store.records.withLock { $0.append(record) }
    }
}
