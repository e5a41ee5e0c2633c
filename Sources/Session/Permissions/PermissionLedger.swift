public import TaskModel

/// The permission answers of one run and the questions still open, as plain bookkeeping:
/// answers are remembered for the run (SageResearch asks once), an open question collects every
/// action waiting for it, and a question nobody answers is denied at its deadline.
public struct PermissionLedger: Sendable {
    public struct Question: Sendable, Hashable {
        public var id: UInt64
        public var permission: PermissionType
        /// Controller keys waiting for the answer.
        public var waiting: [String]
        /// Monotonic seconds at which nobody answering means denied.
        public var deadline: Double
    }

    /// What to do about one permission of one action.
    public enum Outcome: Sendable, Hashable {
        case granted
        case denied
        /// A new question to send to the front end.
        case ask(Question)
        /// Already asked; the action waits for that question's answer.
        case waiting(id: UInt64)
    }

    public var policy: PermissionPolicy
    /// How long a question stays open (SageResearch gives up after two minutes).
    public var timeout: Double
    public private(set) var answers: [PermissionType: Bool] = [:]
    public private(set) var open: [UInt64: Question] = [:]
    private var nextID: UInt64 = 1

    public init(policy: PermissionPolicy, timeout: Double = 120, answers: [PermissionType: Bool] = [:]) {
        self.policy = policy
        self.timeout = timeout
        self.answers = answers
    }

    /// Decides `permission` for the action `key` at monotonic time `now`.
    public mutating func request(_ permission: PermissionType, for key: String, now: Double) -> Outcome {
        if let answer = answers[permission] { return answer ? .granted : .denied }
        switch policy.decision(for: permission) {
        case .granted: return .granted
        case .denied: return .denied
        case .ask:
            if let id = open.first(where: { $0.value.permission == permission })?.key {
                open[id]?.waiting.append(key)
                return .waiting(id: id)
            }
            let question = Question(id: nextID, permission: permission, waiting: [key], deadline: now + timeout)
            nextID += 1
            open[question.id] = question
            return .ask(question)
        }
    }

    /// Records the answer to question `id` and returns the question, or nil when no such
    /// question is open.
    public mutating func answer(_ id: UInt64, granted: Bool) -> Question? {
        guard let question = open.removeValue(forKey: id) else { return nil }
        answers[question.permission] = granted
        return question
    }

    /// The open questions whose deadline has passed at `now`, denied and removed.
    public mutating func expire(now: Double) -> [Question] {
        let expired = open.values.filter { $0.deadline <= now }.sorted { $0.id < $1.id }
        for question in expired {
            open[question.id] = nil
            answers[question.permission] = false
        }
        return expired
    }

    /// The earliest deadline of an open question.
    public var nextDeadline: Double? { open.values.map(\.deadline).min() }

    public var isWaiting: Bool { !open.isEmpty }
}
