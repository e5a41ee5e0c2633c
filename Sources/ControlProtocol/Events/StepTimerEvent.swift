/// `timerStarted`, `timerTick`, `timerPaused`, `timerResumed`, `timerFinished`: the step timer.
public struct StepTimerEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var stepPath: String
    /// Seconds; on `timerStarted`.
    public var duration: Double?
    /// Seconds the timer has run (pauses excluded).
    public var elapsed: Double?
    public var remaining: Double?

    public init(stepPath: String, duration: Double? = nil, elapsed: Double? = nil, remaining: Double? = nil) {
        self.stepPath = stepPath
        self.duration = duration
        self.elapsed = elapsed
        self.remaining = remaining
    }

    public static var schema: JSONSchema {
        .object([.init("stepPath", .string()), .init("duration", .number), .init("elapsed", .number),
                 .init("remaining", .number)], required: ["stepPath"])
    }
}
