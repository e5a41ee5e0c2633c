public import Logging

/// A log event as the journal's `NAME=value` fields (systemd.journal-fields(7)): the pure half
/// of `JournalLogHandler`, tested without a journal.
public enum JournalEntry {
    /// Metadata keys the project uses everywhere, under the journal names a person filters by
    /// (`journalctl RUN_UUID=…`).
    public static let wellKnownFields: [String: String] = [
        "taskRunUUID": "RUN_UUID",
        "runUUID": "RUN_UUID",
        "stepPath": "STEP_PATH",
        "taskIdentifier": "TASK_ID",
        "asyncAction": "CONTROLLER",
        "controller": "CONTROLLER",
    ]

    /// Fields the handler writes itself; metadata never overrides them.
    static let reservedFields: Set<String> = [
        "MESSAGE", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER", "LOGGER",
    ]

    /// The fields of one entry, in a stable order: the message, priority, code location,
    /// identifier and logger label first, then metadata sorted by field name.
    public static func fields(
        level: Logger.Level, message: String, metadata: Logger.Metadata,
        label: String, identifier: String, file: String, function: String, line: UInt
    ) -> [String] {
        var fields = [
            "MESSAGE=" + message,
            "PRIORITY=\(priority(of: level))",
            "CODE_FILE=" + file,
            "CODE_LINE=\(line)",
            "CODE_FUNC=" + function,
            "SYSLOG_IDENTIFIER=" + identifier,
            "LOGGER=" + label,
        ]
        var named: [String: String] = [:]
        for (key, value) in metadata {
            named[fieldName(forMetadataKey: key)] = render(value)
        }
        fields += named.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return fields
    }

    /// syslog priority (0 emergency … 7 debug) of a swift-log level.
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The journal field for a metadata key: a well-known name, else the key in upper snake
    /// case (`peerPID` → `PEER_PID`) with anything but A–Z, 0–9 and `_` replaced by `_`, never
    /// starting with `_` (reserved for trusted fields) or a digit, at most 64 characters, and
    /// prefixed with `META_` where it would collide with a field the handler writes.
    public static func fieldName(forMetadataKey key: String) -> String {
        if let known = wellKnownFields[key] { return known }
        var name = ""
        var previous: Character?
        for character in key {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                name.append("_")
            }
            if character.isASCII, character.isLetter || character.isNumber {
                name += character.uppercased()
            } else {
                name.append("_")
            }
            previous = character
        }
        while name.hasPrefix("_") { name.removeFirst() }
        if name.isEmpty || name.first!.isNumber || reservedFields.contains(name) || wellKnownFields.values.contains(name) {
            name = "META_" + name
        }
        return String(name.prefix(64))
    }

    /// A metadata value as text: strings as they are, lists and dictionaries in swift-log's
    /// own rendering.
    static func render(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: value.description
        }
    }
}
