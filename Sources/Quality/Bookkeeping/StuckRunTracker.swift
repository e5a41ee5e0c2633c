/// The longest run of exactly repeated values on one axis. A live sensor's noise changes the
/// last bits from sample to sample; a value repeated for a second or more means the axis is
/// stuck (a dead channel, a frozen driver).
public struct StuckRunTracker: Sendable, Hashable {
    /// A run of one value.
    public struct Run: Sendable, Hashable {
        public var value: Double
        public var samples: Int
        public var startUptime: Double
        public var endUptime: Double
        /// Seconds from the run's first to its last sample.
        public var seconds: Double { endUptime - startUptime }
    }

    public private(set) var longest: Run?
    private var current: Run?

    public init() {}

    /// Feeds the next value of the axis and its uptime.
    public mutating func next(_ value: Double, uptime: Double) {
        if var run = current, run.value == value {
            run.samples += 1
            run.endUptime = uptime
            current = run
        } else {
            current = Run(value: value, samples: 1, startUptime: uptime, endUptime: uptime)
        }
        if let run = current, run.samples > (longest?.samples ?? 0) {
            longest = run
        }
    }
}
