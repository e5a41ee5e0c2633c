import TaskModel
import TaskNavigation

/// MotorControl's hand tasks in a session (docs/task-format.md, "Hands"): the `handSelection`
/// step's answer becomes the hand order the navigator follows, recorded as MotorControl's
/// `handSelection` collection, and every `%@` of a step's texts names the hand.
extension SessionMachine {
    /// The step type of MotorControl's hand selection question.
    static let handSelectionType = "handSelection"

    /// The front end's result for a `handSelection` step, with the hand order added: the
    /// answers `handSelection` (the hand chosen) and `handOrder` (the hands in the order they
    /// run: a coin orders `both`), and the order handed to the navigator. Another step's
    /// input, or one without a hand answer (every hand section then runs in order), is
    /// returned as the question rules decided it (`decided`).
    mutating func recordHands(_ input: StepResultInput, for step: Step, keeping decided: StepResultInput) throws(SessionError) -> StepResultInput {
        guard step.type.rawValue == Self.handSelectionType else { return decided }
        guard let answer = input.answers.first(where: { $0.identifier == Self.handSelectionType || $0.identifier == step.identifier }) else {
            return decided
        }
        guard case .string(let text) = answer.value, let selection = Hand(rawValue: text) else {
            throw SessionError(.invalidArgument, "The answer \"\(answer.identifier)\" of step \"\(step.identifier)\" must be \"left\", \"right\" or \"both\"; send one of them.")
        }
        let order = HandOrder.order(for: selection, leftFirst: selection == .both ? handCoin.leftFirst() : true)
        navigator.handOrder = order
        var recorded = input
        recorded.answers = [
            StepResultInput.Answer(identifier: "handSelection", value: .string(selection.rawValue), answerType: ["type": "string"],
                                   questionText: answer.questionText),
            StepResultInput.Answer(identifier: "handOrder", value: .array(order.map { .string($0.rawValue) }),
                                   answerType: ["type": "array", "baseType": "string"]),
        ] + input.answers.filter { $0.identifier != answer.identifier && $0.identifier != "handOrder" }
        return recorded
    }

    /// A resumed run follows the hand order its results recorded (the last `handSelection`
    /// collection of the task's step history).
    mutating func restoreHands(from results: TaskResult) {
        for item in results.stepHistory.reversed() {
            guard let collection = item.result as? CollectionResult, collection.identifier == Self.handSelectionType else { continue }
            let order = collection.children.compactMap { $0.result as? AnswerResult }.first { $0.identifier == "handOrder" }?.value
            guard case .array(let values)? = order else { return }
            let hands = values.compactMap { $0.stringValue.flatMap(Hand.init(rawValue:)) }
            navigator.handOrder = hands.isEmpty ? nil : hands
            return
        }
    }

    /// `text` of the step at `location` as it is shown and spoken: its `%@` names the hand.
    func handText(_ text: String, at location: StepLocation) -> String {
        navigator.handText(text, at: location)
    }

    /// The step's `end` prompt as spoken; nil when it has none.
    func endPrompt(of location: StepLocation) -> String? {
        task.step(at: location)?.spokenInstructions?["end"].map { handText($0, at: location) }
    }
}
