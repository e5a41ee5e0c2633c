/// The status of an async action controller, ordered as SageResearch orders it.
///
/// Status only moves forward: a controller never returns to an earlier status, and
/// `finished`, `cancelled` and `failed` are final.
public enum AsyncActionStatus: Int, Sendable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    case idle
    case requestingPermission
    case permissionGranted
    case starting
    case running
    case waitingToStop
    case processingResults
    case stopping
    case finished
    case cancelled
    case failed

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True once the controller can no longer change status.
    public var isFinal: Bool { self >= .finished }

    /// The name used in JSON and logs (`requestingPermission`, …).
    public var description: String {
        switch self {
        case .idle: "idle"
        case .requestingPermission: "requestingPermission"
        case .permissionGranted: "permissionGranted"
        case .starting: "starting"
        case .running: "running"
        case .waitingToStop: "waitingToStop"
        case .processingResults: "processingResults"
        case .stopping: "stopping"
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }

    /// Parses the name written by `description`.
    public init?(name: String) {
        guard let status = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = status
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let status = Self(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not an async action status.")
        }
        self = status
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Whether a controller in this status may move to `next`: forward only, never out of a
    /// final status. Skipping statuses is allowed (a cancel goes straight to `cancelled`).
    public func canMove(to next: Self) -> Bool {
        !isFinal && next > self
    }
}
