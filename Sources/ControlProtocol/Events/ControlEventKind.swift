/// The kind of an `event` notification (`params.kind`), declared once: its name, one line
/// saying what it tells, its payload type and the `ControlEventPayload` case it is read into.
/// The wire event, the OpenRPC document and the client's decoding derive from the declaration
/// (docs/protocol.md, "Adding an event").
public struct ControlEventKind: Sendable, Hashable, Codable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The kind's name on the wire.
    public let rawValue: String
    /// What an event of this kind tells, in one line.
    public let summary: String
    /// The type of the members beside `sequence`, `uptime` and `kind`.
    public let payloadType: any ControlSchemaDescribing.Type
    private let read: @Sendable (any Decoder) throws -> ControlEventPayload

    init<Payload: ControlSchemaDescribing>(
        _ name: String, _ summary: String, _ payload: @escaping @Sendable (Payload) -> ControlEventPayload
    ) {
        rawValue = name
        self.summary = summary
        payloadType = Payload.self
        read = { payload(try Payload(from: $0)) }
    }

    public static let stepShown = ControlEventKind(
        "stepShown", "A step is on screen; everything the front end needs to draw it.", ControlEventPayload.stepShown)
    public static let timerStarted = ControlEventKind(
        "timerStarted", "The step timer started.", ControlEventPayload.timerStarted)
    public static let timerTick = ControlEventKind(
        "timerTick", "Once a second while the step timer runs.", ControlEventPayload.timerTick)
    public static let timerPaused = ControlEventKind(
        "timerPaused", "The step timer was paused.", ControlEventPayload.timerPaused)
    public static let timerResumed = ControlEventKind(
        "timerResumed", "The step timer was resumed.", ControlEventPayload.timerResumed)
    public static let timerFinished = ControlEventKind(
        "timerFinished", "The step timer reached the step's duration.", ControlEventPayload.timerFinished)
    public static let actionStatus = ControlEventKind(
        "actionStatus", "An async action's status moved forward.", ControlEventPayload.actionStatus)
    public static let actionFailed = ControlEventKind(
        "actionFailed", "A recorder failed; its error result is recorded and the task goes on.", ControlEventPayload.actionFailed)
    public static let warning = ControlEventKind(
        "warning", "Something worth telling that stops nothing.", ControlEventPayload.warning)
    public static let permissionRequest = ControlEventKind(
        "permissionRequest", "The front end must ask the person; answer with permission.answer.",
        ControlEventPayload.permissionRequest)
    public static let permissionAnswered = ControlEventKind(
        "permissionAnswered", "A permission was answered: by the front end, the policy or the time-out.",
        ControlEventPayload.permissionAnswered)
    public static let promptSpoken = ControlEventKind(
        "promptSpoken", "A spoken instruction started to be heard.", ControlEventPayload.promptSpoken)
    public static let promptFinished = ControlEventKind(
        "promptFinished", "A spoken instruction finished playing.", ControlEventPayload.promptFinished)
    public static let stepCommand = ControlEventKind(
        "stepCommand", "A step's playSound* (played by the daemon) or vibrate* (the front end's) command.",
        ControlEventPayload.stepCommand)
    public static let audioLevel = ControlEventKind(
        "audioLevel", "One second of microphone levels.", ControlEventPayload.audioLevel)
    public static let motionProgress = ControlEventKind(
        "motionProgress", "One second of motion recording.", ControlEventPayload.motionProgress)
    public static let taskResultReady = ControlEventKind(
        "taskResultReady", "The task result is final and written: the last completion step shows, or the run ends.",
        ControlEventPayload.taskResultReady)
    public static let taskFinished = ControlEventKind(
        "taskFinished", "The run ended; its results and archive are in its run directory.", ControlEventPayload.taskFinished)
    public static let eventsLost = ControlEventKind(
        "eventsLost", "Events before this one were dropped because they could not be delivered in time.",
        ControlEventPayload.eventsLost)

    /// Every kind, in the OpenRPC document's order.
    public static let allCases: [ControlEventKind] = [
        stepShown, timerStarted, timerTick, timerPaused, timerResumed, timerFinished, actionStatus, actionFailed,
        warning, permissionRequest, permissionAnswered, promptSpoken, promptFinished, stepCommand, audioLevel, motionProgress,
        taskResultReady, taskFinished, eventsLost,
    ]

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    public init?(rawValue: String) {
        guard let kind = Self.byName[rawValue] else { return nil }
        self = kind
    }

    public var description: String { rawValue }

    /// Reads the payload's members of an event of this kind.
    func payload(from decoder: any Decoder) throws -> ControlEventPayload {
        try read(decoder)
    }

    public static func == (lhs: ControlEventKind, rhs: ControlEventKind) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let kind = Self.byName[name] else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Cannot initialize ControlEventKind from invalid String value \(name)")
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ControlEventKind: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
