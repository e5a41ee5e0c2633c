/// A hand of MotorControl's hand tasks (docs/task-format.md, "Hands"): the value of the
/// `handSelection` answer and the identifier of the section run with that hand.
public enum Hand: String, Sendable, Hashable, Codable, CaseIterable {
    case left
    case right
    case both

    /// How MotorControl shows the hand in a step's texts: its raw value in capitals.
    public var displayName: String { rawValue.uppercased() }

    /// The other hand; nil for `both`.
    public var opposite: Hand? {
        switch self {
        case .left: .right
        case .right: .left
        case .both: nil
        }
    }
}
