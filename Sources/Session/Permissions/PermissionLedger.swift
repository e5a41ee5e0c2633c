public import TaskModel

/// The permission answers of one run, as plain bookkeeping: answers are remembered for the run
/// (SageResearch asks once), and a permission the policy leaves to the person becomes a
/// numbered question with a deadline (nobody answering means denied). The questions still open
/// are where the run is, not bookkeeping: `SessionMachine.Phase.waitingForPermission` carries
/// them (docs/session.md, "The machine").
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
    }

    public var policy: PermissionPolicy
    /// How long a question stays open (SageResearch gives up after two minutes).
    public var timeout: Double
    public private(set) var answers: [PermissionType: Bool] = [:]
    private var nextID: UInt64 = 1

    public init(policy: PermissionPolicy, timeout: Double = 120, answers: [PermissionType: Bool] = [:]) {
        self.policy = policy
        self.timeout = timeout
        self.answers = answers
    }

    /// Decides `permission` for the action `key` at monotonic time `now`: the run's answer,
    /// else the policy; a permission to ask gets a new question, due `timeout` after `now`. (A
    /// question already open for it is joined by its holder before the ledger is asked.)
    public mutating func request(_ permission: PermissionType, for key: String, now: Double) -> Outcome {
        if let answer = answers[permission] { return answer ? .granted : .denied }
        switch policy.decision(for: permission) {
        case .granted: return .granted
        case .denied: return .denied
        case .ask:
            let question = Question(id: nextID, permission: permission, waiting: [key], deadline: now + timeout)
            nextID += 1
            return .ask(question)
        }
    }

    /// Remembers the answer to `question` for the rest of the run.
    public mutating func record(_ question: Question, granted: Bool) {
        answers[question.permission] = granted
    }
}
