public import TaskModel

/// An async action declared by a task or section: the declaring container (`owner`, a step
/// path such as `WalkAndBalance/walk`) and its configuration.
public struct AsyncActionReference: Sendable, Hashable, CustomStringConvertible {
    /// The step path of the task or section declaring the action.
    public var owner: String
    /// The location of the declaring container (`.root` for the task).
    public var ownerLocation: StepLocation
    public var configuration: any AsyncActionConfiguration

    public init(owner: String, ownerLocation: StepLocation, configuration: any AsyncActionConfiguration) {
        self.owner = owner
        self.ownerLocation = ownerLocation
        self.configuration = configuration
    }

    public var identifier: String { configuration.identifier }

    public static func == (lhs: AsyncActionReference, rhs: AsyncActionReference) -> Bool {
        lhs.ownerLocation == rhs.ownerLocation && lhs.identifier == rhs.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ownerLocation)
        hasher.combine(identifier)
    }

    public var description: String { "\(owner):\(identifier)" }
}
