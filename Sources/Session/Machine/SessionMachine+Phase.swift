import TaskModel
import TaskNavigation

extension SessionMachine {
    /// Where a run is, each case with what it carries (docs/session.md, "The machine"). What a
    /// client sees (`state`: running, paused, waiting for permission …) is derived from it.
    enum Phase: Sendable, Hashable {
        /// Loaded and not started; a resumed run shows `resumePoint` again when it starts.
        case loaded(resumePoint: StepLocation?)
        /// Started and going on.
        case started(Progress)
        /// Started, and held until every permission question it asked is answered: moves and
        /// the timer's start wait; the last answer (or deadline) returns it to `started` with
        /// the same progress (docs/session.md, "Permissions").
        case waitingForPermission(Progress, PermissionWait)
        /// Ending for the reason decided, from where it was (nil: it never started): nothing
        /// but the end is carried out, and clients still see the step it was on.
        case ending(FinishReason, Progress?)
        /// The end is carried out: finished, or saved for a later resume.
        case over(FinishReason)

        /// The step shown, where there is one.
        var shown: ShownStep? {
            switch self {
            case .started(let progress), .waitingForPermission(let progress, _): progress.shown
            case .ending(_, let progress): progress?.shown
            case .loaded, .over: nil
            }
        }

        /// Sets the step shown of a started or ending run (a run not started or over shows none).
        mutating func setShown(_ shown: ShownStep?) {
            switch self {
            case .started(var progress):
                progress.shown = shown
                self = .started(progress)
            case .waitingForPermission(var progress, let wait):
                progress.shown = shown
                self = .waitingForPermission(progress, wait)
            case .ending(let reason, var progress?):
                progress.shown = shown
                self = .ending(reason, progress)
            case .loaded, .ending(_, nil), .over:
                break
            }
        }

        /// The result is announced now (the last completion step shows).
        mutating func markResultAnnounced() {
            switch self {
            case .started(var progress):
                progress.resultAnnounced = true
                self = .started(progress)
            case .waitingForPermission(var progress, let wait):
                progress.resultAnnounced = true
                self = .waitingForPermission(progress, wait)
            case .loaded, .ending, .over:
                break
            }
        }
    }

    /// A started run: the step shown with its clock (nil once a move went past the last step,
    /// until the end it decided comes). A wait for permissions holds it as it is and gives it
    /// back once settled.
    struct Progress: Sendable, Hashable {
        var shown: ShownStep?
        /// The last completion step showed: the result was written and `taskResultReady`
        /// announced then, not again as the run ends.
        var resultAnnounced = false

        /// What clients see of it: the step timer's pause.
        var state: SessionState {
            shown?.clock?.timer.isPaused == true ? .paused : .running
        }
    }

    /// What only a run waiting for permissions has: the questions it asked and nobody answered
    /// yet, each with the actions waiting for it and its deadline. Never empty: the answer that
    /// settles the last one returns the run to `started`.
    struct PermissionWait: Sendable, Hashable {
        private(set) var questions: [UInt64: PermissionLedger.Question]

        init(_ question: PermissionLedger.Question) {
            questions = [question.id: question]
        }

        /// The open questions' numbers, in the order they were asked.
        var ids: [UInt64] { questions.keys.sorted() }

        /// The earliest deadline of an open question.
        var deadline: Double { questions.values.map(\.deadline).min() ?? .infinity }

        /// Adds a question just asked.
        mutating func add(_ question: PermissionLedger.Question) {
            questions[question.id] = question
        }

        /// The action `key` waits for the question already open for `permission`, as SageResearch
        /// asks once; false when none is.
        mutating func join(_ permission: PermissionType, key: String) -> Bool {
            guard let id = questions.first(where: { $0.value.permission == permission })?.key else { return false }
            questions[id]?.waiting.append(key)
            return true
        }

        /// Whether the action `key` still waits for a question.
        func holds(_ key: String) -> Bool {
            questions.values.contains { $0.waiting.contains(key) }
        }

        /// Takes question `id` out (it is answered); nil when it is not open.
        mutating func remove(_ id: UInt64) -> PermissionLedger.Question? {
            questions.removeValue(forKey: id)
        }
    }

    /// Where the session is, as clients see it.
    var state: SessionState {
        switch phase {
        case .loaded: .loaded
        case .started(let progress): progress.state
        case .waitingForPermission: .waitingForPermission
        case .ending(_, let progress): progress?.state ?? .loaded
        case .over(let reason): reason == .saved ? .saved : .finished(reason)
        }
    }

    /// The step shown; nil before the start and after the end.
    var shown: ShownStep? { phase.shown }

    /// The permission questions open now, in the order they were asked; empty unless the run
    /// waits for permissions.
    var openPermissionRequests: [UInt64] {
        if case .waitingForPermission(_, let wait) = phase { return wait.ids }
        return []
    }

    /// Why the run is ending, from the moment the machine decided it until `runFinished`.
    var ending: FinishReason? {
        if case .ending(let reason, _) = phase { return reason }
        return nil
    }

    /// Whether the run ending now announces `taskResultReady` as it finishes (SageResearch's
    /// `handleTaskResultReady`, docs/session.md): a run that completes, exits early or is
    /// abandoned does, unless its last completion step announced it already.
    var announcesResultAtEnd: Bool {
        guard case .ending(let reason, let progress) = phase else { return false }
        return [.completed, .earlyExit, .abandoned].contains(reason) && progress?.resultAnnounced != true
    }
}
