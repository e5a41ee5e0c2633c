/// An action the front end may offer on the current step; the raw value is the method without
/// its `run.` prefix (`forward` → `run.forward`, `timer.start`).
public enum StepAction: String, Sendable, Hashable, Codable, CaseIterable {
    case forward
    case back
    case skip
    case abandon
    case cancel
    case timerStart = "timer.start"
    case timerPause = "timer.pause"
    case timerResume = "timer.resume"
}

extension StepAction: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
