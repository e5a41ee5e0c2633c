public import Logging

/// A swift-log handler that writes each event to the systemd journal with structured fields
/// (`JournalEntry`): the message, priority, code location, and the metadata as fields such as
/// RUN_UUID, STEP_PATH, TASK_ID and CONTROLLER, so `journalctl -u activetaskd RUN_UUID=…` finds
/// a run's lines.
public struct JournalLogHandler: LogHandler {
    /// The logger's label (the `LOGGER` field).
    public let label: String
    /// The `SYSLOG_IDENTIFIER` (`journalctl -t`).
    public let identifier: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler for loggers labelled `label`, writing under `identifier`.
    public init(label: String, identifier: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.identifier = identifier
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error { merged["error"] = "\(error)" }
        let fields = JournalEntry.fields(
            level: event.level, message: event.message.description, metadata: merged,
            label: label, identifier: identifier, file: event.file, function: event.function, line: event.line
        )
        do {
            try LibSystemd.journalSend(fields)
        } catch {
            // The journal is gone (journald restarting): a line on stderr beats losing it.
            FileDescriptorOutput.standardError.write("\(identifier): \(event.level): \(event.message) [journal: \(error.reason)]\n")
        }
    }
}
