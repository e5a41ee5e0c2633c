/// What the daemon does when a recorder asks for a permission (docs/configuration.md).
public enum PermissionPolicy: String, Sendable, Hashable, CaseIterable {
    /// Granted without asking anyone.
    case granted
    /// Refused: the recorder fails with a permission error result.
    case denied
    /// A permission request goes to the front end, which answers it.
    case ask
}
