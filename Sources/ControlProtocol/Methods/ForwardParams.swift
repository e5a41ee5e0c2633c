public import TaskModel
/// `run.forward`: the step's result from the front end.
public struct ForwardParams: Sendable, Hashable, ControlParams, RunNamingParams {
    /// The answers collected on the step, added to its result.
    public var answers: [StepAnswer]?
    /// Where to go next, as a navigation result's `skipToIdentifier` (docs/task-format.md, "Navigation").
    public var skipToIdentifier: String?
    /// The step the front end is leaving; when given and another step is showing (the timer
    /// moved on, another client went forward), the command is refused with -32000 instead of
    /// leaving the wrong step.
    public var stepPath: String?
    /// The result of the step being left, made by the front end, of a type the daemon knows:
    /// `tapping` (MotorControl's tapping result; docs/protocol.md, "Results from the front end").
    public var result: JSONValue?
    /// The run the front end means; refused with -32001 when another is current.
    public var taskRunUUID: String?

    public init(answers: [StepAnswer]? = nil, skipToIdentifier: String? = nil, stepPath: String? = nil, result: JSONValue? = nil, taskRunUUID: String? = nil) {
        self.answers = answers
        self.skipToIdentifier = skipToIdentifier
        self.stepPath = stepPath
        self.result = result
        self.taskRunUUID = taskRunUUID
    }

    /// Left out: go forward with no answers.
    public static var whenAbsent: ForwardParams? { ForwardParams() }

    public static var schema: JSONSchema {
        .object([
            .init("answers", .array(.reference(to: StepAnswer.self))),
            .init("skipToIdentifier", .string()),
            .init("stepPath", .described("The step being left; refused with -32000 if another step is showing.", .string())),
            .init("result", .described(
                "The front end's result of the step being left, of a type the daemon knows: tapping (MotorControl's MCTTappingResultObject). Its identifier must be the step's; refused with -32602 and data.codingPath when it does not fit.",
                tappingResult)),
            runMember,
        ], required: [])
    }

    /// MotorControl's tapping result as the front end sends it.
    static var tappingResult: JSONSchema {
        .object([
            .init("type", .string(enumeration: ["tapping"])),
            .init("identifier", .string()),
            .init("startDate", .string(format: "date-time")),
            .init("endDate", .string(format: "date-time")),
            .init("viewSize", .described("\"{width, height}\" in points.", .string())),
            .init("buttonRectLeft", .described("\"{{x, y}, {width, height}}\" in the view's points.", .string())),
            .init("buttonRectRight", .described("\"{{x, y}, {width, height}}\" in the view's points.", .string())),
            .init("tapCount", .integer(minimum: 0)),
            .init("samples", .array(.object([
                .init("stepPath", .string()),
                .init("timestamp", .described("Seconds since the first tap; the daemon maps it onto the recorder files' uptime clock.", .number)),
                .init("uptime", .described("Replaced by the daemon: the touch on the recorder files' uptime clock.", .number)),
                .init("buttonIdentifier", .string(enumeration: ["left", "right", "none"])),
                .init("location", .described("[x, y] in the view's points.", .array(.number))),
                .init("duration", .number),
            ], required: ["stepPath", "uptime", "buttonIdentifier", "location", "duration"]))),
        ], required: ["type", "identifier", "startDate", "endDate"])
    }
}
