/// The `type` of a step exactly as written in the JSON (`instruction`, `countdown`,
/// `handInstruction`, …); what it behaves as is the `StepKind` the type registry maps it to.
public struct StepType: ExtensibleName {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let instruction = StepType(rawValue: "instruction")
    public static let overview = StepType(rawValue: "overview")
    public static let active = StepType(rawValue: "active")
    public static let countdown = StepType(rawValue: "countdown")
    public static let completion = StepType(rawValue: "completion")
    public static let section = StepType(rawValue: "section")
    public static let transform = StepType(rawValue: "transform")
    public static let taskInfo = StepType(rawValue: "taskInfo")
    public static let subtask = StepType(rawValue: "subtask")
}
