public import TaskModel

/// What the daemon answers when an async action asks for a permission (the configuration's
/// `permissions` table): grant it, deny it, or ask the front end.
public enum PermissionDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case granted, denied, ask
}

/// The decision for each permission, with a default for those not listed.
public struct PermissionPolicy: Sendable, Hashable {
    public var decisions: [PermissionType: PermissionDecision]
    public var defaultDecision: PermissionDecision

    public init(_ decisions: [PermissionType: PermissionDecision] = [:], default defaultDecision: PermissionDecision = .granted) {
        self.decisions = decisions
        self.defaultDecision = defaultDecision
    }

    public func decision(for permission: PermissionType) -> PermissionDecision {
        decisions[permission] ?? defaultDecision
    }
}
