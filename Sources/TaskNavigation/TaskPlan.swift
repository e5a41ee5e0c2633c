public import TaskModel

/// The forward path through a task with no results and full instructions, as
/// `activetaskctl plan --json` prints it (docs/task-format.md): each step a person sees, with the async
/// actions starting on entering it and stopping when it ends, and its spoken prompts.
public struct TaskPlan: Codable, Sendable, Hashable {
    /// An async action in the plan: the path of the task or section declaring it and its identifier.
    public struct AsyncAction: Codable, Sendable, Hashable {
        public var owner: String
        public var identifier: String

        public init(owner: String, identifier: String) {
            self.owner = owner
            self.identifier = identifier
        }
    }

    /// One step of the plan.
    public struct PlannedStep: Codable, Sendable, Hashable {
        public var stepPath: String
        /// The type as written.
        public var type: String
        /// The timer in seconds; nil when absent or 0.
        public var duration: Double?
        public var startAsyncActions: [AsyncAction]
        /// The actions whose stop comes when this step ends.
        public var stopAsyncActions: [AsyncAction]
        public var spokenInstructions: [SpokenInstruction]

        public init(stepPath: String, type: String, duration: Double?, startAsyncActions: [AsyncAction] = [],
                    stopAsyncActions: [AsyncAction] = [], spokenInstructions: [SpokenInstruction] = []) {
            self.stepPath = stepPath
            self.type = type
            self.duration = duration
            self.startAsyncActions = startAsyncActions
            self.stopAsyncActions = stopAsyncActions
            self.spokenInstructions = spokenInstructions
        }

        private enum CodingKeys: String, CodingKey {
            case stepPath, type, duration, startAsyncActions, stopAsyncActions, spokenInstructions
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stepPath, forKey: .stepPath)
            try container.encode(type, forKey: .type)
            // null, not absent: the contract has the key on every step.
            if let duration { try container.encode(duration, forKey: .duration) } else { try container.encodeNil(forKey: .duration) }
            try container.encode(startAsyncActions, forKey: .startAsyncActions)
            try container.encode(stopAsyncActions, forKey: .stopAsyncActions)
            try container.encode(spokenInstructions, forKey: .spokenInstructions)
        }
    }

    public var taskIdentifier: String
    public var steps: [PlannedStep]
    /// Why the plan stopped early (navigation going back to a step already planned); not encoded.
    public var notes: [String] = []

    private enum CodingKeys: String, CodingKey { case taskIdentifier, steps }

    public init(taskIdentifier: String, steps: [PlannedStep], notes: [String] = []) {
        self.taskIdentifier = taskIdentifier
        self.steps = steps
        self.notes = notes
    }

    /// Plans `task`: walks it forward with no results from its first step to its end. `hand`
    /// is the `handSelection` answer planned for (`both` plans the left hand first); the `%@`
    /// of the spoken prompts names the hand (docs/task-format.md, "Hands").
    public init(task: TaskDefinition, showsFullInstructions: Bool = true, cohorts: Set<String> = [], hand: Hand? = nil) throws(NavigationError) {
        var navigator = TaskNavigator(task: task, showsFullInstructions: showsFullInstructions, cohorts: cohorts)
        navigator.handOrder = hand.map { HandOrder.order(for: $0, leftFirst: true) }
        var steps: [PlannedStep] = []
        var notes: [String] = []
        func actions(_ references: [AsyncActionReference]) -> [AsyncAction] {
            references.map { AsyncAction(owner: $0.owner, identifier: $0.identifier) }
        }
        var transition = try navigator.start()
        while true {
            if transition.from != nil, !steps.isEmpty {
                steps[steps.count - 1].stopAsyncActions += actions(transition.stopAsyncActions)
            }
            guard let location = transition.to, let step = task.step(at: location) else { break }
            if transition.direction == .backward {
                // Without results, a rule sending navigation back would repeat forever.
                notes.append("The plan stops at \(task.stepPath(of: location)): navigation goes back to a step already planned.")
                break
            }
            steps.append(PlannedStep(
                stepPath: task.stepPath(of: location),
                type: step.type.rawValue,
                duration: Self.duration(of: step),
                startAsyncActions: actions(transition.startAsyncActions),
                spokenInstructions: SpokenInstructionSchedule.entries(step.spokenInstructions, duration: Self.duration(of: step)).map {
                    SpokenInstruction(time: $0.time, text: navigator.handText($0.text, at: location), key: $0.key)
                }))
            transition = try navigator.goForward()
        }
        self.init(taskIdentifier: task.identifier, steps: steps, notes: notes)
    }

    /// The step's timer: its `effectiveDuration`, or for a pass-through UI step a positive
    /// `duration` as written.
    static func duration(of step: Step) -> Double? {
        if let duration = step.effectiveDuration { return duration }
        if step.kind == .ui, let written = step.properties["duration"]?.doubleValue, written > 0 { return written }
        return nil
    }
}
