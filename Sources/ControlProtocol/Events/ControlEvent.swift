/// One session event as the daemon sends it: the params of an `event` notification.
///
/// On the wire the payload's members sit beside `sequence`, `uptime`, `kind` and the run's
/// `taskRunUUID`: `{"sequence": 12, "uptime": 5031.2, "kind": "timerTick", "taskRunUUID": "…",
/// "stepPath": "…", "elapsed": 3, …}` (docs/protocol.md, "Events").
public struct ControlEvent: Sendable, Hashable {
    /// 1, 2, 3, … for the daemon's life; a gap follows an `eventsLost` event.
    public var sequence: UInt64
    /// CLOCK_BOOTTIME seconds when it happened (the clock of the recorder files).
    public var uptime: Double
    public var payload: ControlEventPayload
    /// The run the event is of; nil for an event of no run. A client that follows one run
    /// tells its events from another's by it, whatever order they come in.
    public var taskRunUUID: String?

    /// An event of the run `taskRunUUID` (a `taskFinished` or `taskResultReady` names its own).
    public init(sequence: UInt64, uptime: Double, payload: ControlEventPayload, taskRunUUID: String? = nil) {
        self.sequence = sequence
        self.uptime = uptime
        self.payload = payload
        self.taskRunUUID = payload.taskRunUUID ?? taskRunUUID
    }

    public var kind: ControlEventKind { payload.kind }

    /// The notification method that carries events.
    public static let notificationMethod = "event"
}

extension ControlEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case sequence, uptime, kind, taskRunUUID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        uptime = try container.decode(Double.self, forKey: .uptime)
        let kind = try container.decode(ControlEventKind.self, forKey: .kind)
        payload = try ControlEventPayload(kind: kind, from: decoder)
        taskRunUUID = try payload.taskRunUUID ?? container.decodeIfPresent(String.self, forKey: .taskRunUUID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(uptime, forKey: .uptime)
        try container.encode(kind, forKey: .kind)
        // A payload that names its run writes the member itself.
        if payload.taskRunUUID == nil { try container.encodeIfPresent(taskRunUUID, forKey: .taskRunUUID) }
        try payload.encodeMembers(to: encoder)
    }
}
