import TaskNavigation

/// The async actions of a run as the session machine keeps them: each one's declaration and
/// phase, in the order they were created. The controllers themselves are the actor's.
struct ActionTable: Sendable, Hashable {
    enum Phase: Sendable, Hashable {
        /// Created; permissions are being decided, or its device is being checked.
        case preparing
        /// Waiting for the answer to a permission question.
        case asking
        /// Permission granted and the device opens; starts at the next step-timer start.
        case ready
        case running
        /// Stopped; its results are recorded.
        case stopped
        /// Failed or denied; its `_error` result is recorded.
        case failed
        case cancelled

        var isActive: Bool { self == .preparing || self == .asking || self == .ready || self == .running }
    }

    /// Keys (`AsyncActionReference.description`) in creation order.
    private(set) var order: [String] = []
    private var phases: [String: Phase] = [:]
    private var references: [String: AsyncActionReference] = [:]

    subscript(key: String) -> Phase? { phases[key] }

    func reference(_ key: String) -> AsyncActionReference? { references[key] }

    /// The action `reference` was created (again, when an earlier one of it ended).
    mutating func create(_ reference: AsyncActionReference) {
        let key = reference.description
        order.removeAll { $0 == key }
        order.append(key)
        phases[key] = .preparing
        references[key] = reference
    }

    mutating func set(_ key: String, _ phase: Phase) {
        guard phases[key] != nil else { return }
        phases[key] = phase
    }

    /// The keys in `phase`, in creation order.
    func keys(in phase: Phase) -> [String] { order.filter { phases[$0] == phase } }

    /// The keys still active, in creation order.
    var activeKeys: [String] { order.filter { phases[$0]?.isActive == true } }
}
