import ControlProtocol
import TaskModel

extension StepShownEvent {
    /// The question the step asks, decoded from the step as shown; nil for other steps and for a
    /// question the daemon would not have shown (it decodes the same keys).
    var question: QuestionStep? {
        guard let properties = step.objectValue, let identifier = properties["identifier"]?.stringValue else { return nil }
        let step = Step(identifier: identifier, type: StepType(rawValue: type), kind: .ui, properties: properties)
        return try? step.question()
    }
}
