/// Finds gaps in one sensor's sample times: a step between consecutive samples longer than
/// `tolerance` sampling periods. A gap's length is the time missing, the step minus one period,
/// so a 0.5 s hole in a 100 Hz stream (a step of 0.51 s) counts as 0.5 s.
public struct GapTracker: Sendable, Hashable {
    /// The longest gap and where it was.
    public struct Gap: Sendable, Hashable {
        /// Seconds missing.
        public var seconds: Double
        /// CLOCK_BOOTTIME seconds of the last sample before the gap.
        public var afterUptime: Double
        /// The step path of the last sample before the gap.
        public var stepPath: String
    }

    /// The expected seconds between samples.
    public let period: Double
    /// How many periods a step may last before it counts as a gap (the recorder uses 1.9).
    public let tolerance: Double
    public private(set) var count = 0
    public private(set) var totalSeconds = 0.0
    public private(set) var longest: Gap?
    private var last: Double?
    private var lastStepPath = ""

    public init(period: Double, tolerance: Double) {
        self.period = period
        self.tolerance = tolerance
    }

    /// Feeds the next sample's uptime and step path.
    public mutating func next(uptime: Double, stepPath: String) {
        defer {
            last = uptime
            lastStepPath = stepPath
        }
        guard let last else { return }
        let step = uptime - last
        guard step > period * tolerance else { return }
        let missing = step - period
        count += 1
        totalSeconds += missing
        if missing > (longest?.seconds ?? 0) {
            longest = Gap(seconds: missing, afterUptime: last, stepPath: lastStepPath)
        }
    }
}
