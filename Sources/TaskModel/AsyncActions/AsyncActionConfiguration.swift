/// The configuration of an async action (a recorder) declared by a task or a section.
///
/// Mirrors SageResearch's `AsyncActionConfiguration`: the action starts when the step named by
/// `startStepIdentifier` is entered (or at the first step of its owner when nil) and stops when
/// the step named by `stopStepIdentifier` ends (or when its owner ends when nil).
public protocol AsyncActionConfiguration: Codable, Sendable {
    /// The identifier of the action, unique within its owner.
    var identifier: String { get }
    /// The serialized `type` of the configuration.
    var asyncActionType: AsyncActionType { get }
    /// The step whose start starts the action; nil means the first step of the owner.
    var startStepIdentifier: String? { get }
    /// The step whose end stops the action; nil means when the owner ends.
    var stopStepIdentifier: String? { get }
    /// The permissions the action needs before it can start.
    var permissionTypes: [PermissionType] { get }
}
