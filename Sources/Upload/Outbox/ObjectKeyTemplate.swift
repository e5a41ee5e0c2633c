/// The object key of a run's archive: a template such as
/// `{study}/{device}/{date}/{taskIdentifier}/{taskRunUUID}.zip` (the default) whose placeholders
/// are filled from the configuration and the outbox entry.
public struct ObjectKeyTemplate: Sendable, Hashable {
    public static let defaultTemplate = "{study}/{device}/{date}/{taskIdentifier}/{taskRunUUID}.zip"
    public static let placeholders: Set<String> = ["study", "device", "date", "taskIdentifier", "taskRunUUID"]

    /// Why a template cannot be used.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public let template: String

    /// Checks that every `{…}` is a known placeholder, braces are balanced and
    /// `{taskRunUUID}` occurs (without it two runs would share one object).
    public init(_ template: String) throws(Problem) {
        var rest = Substring(template)
        var names: Set<String> = []
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Problem(description: "The key template \"\(template)\" opens a { that is never closed.")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(name) else {
                throw Problem(description: "The key template \"\(template)\" names {\(name)}; use only \(Self.placeholders.sorted().map { "{\($0)}" }.joined(separator: ", ")).")
            }
            names.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { throw Problem(description: "The key template \"\(template)\" closes a } that was never opened.") }
        guard names.contains("taskRunUUID") else {
            throw Problem(description: "The key template \"\(template)\" has no {taskRunUUID}: two runs would overwrite one object. Add it.")
        }
        guard !template.hasPrefix("/") else { throw Problem(description: "The key template \"\(template)\" starts with /; S3 keys start with their first segment. Remove it.") }
        self.template = template
    }

    /// The key for `entry`. A `/` inside a value becomes `_`, so a value never adds a level.
    public func key(for entry: OutboxEntry, study: String, device: String) -> String {
        let values = [
            "study": study, "device": device, "date": entry.endDay,
            "taskIdentifier": entry.taskIdentifier, "taskRunUUID": entry.taskRunUUID.uuidString,
        ]
        var key = template
        for (name, value) in values {
            key = key.replacing("{\(name)}", with: value.replacing("/", with: "_"))
        }
        return key
    }
}
