import Clocks

/// Finds gaps in a sensor's sample times (a buffer overrun drops scans; the timestamps jump):
/// a step longer than `tolerance` sampling periods counts as a gap.
public struct GapDetector: Sendable, Hashable {
    /// A gap found.
    public struct Gap: Sendable, Hashable {
        /// CLOCK_BOOTTIME seconds of the last sample before the gap.
        public var after: Double
        /// Seconds between the samples on either side.
        public var duration: Double
        /// About how many samples are missing.
        public var missingSamples: Int
    }

    /// The expected seconds between samples.
    public let period: Double
    /// How many periods a step may last before it counts as a gap.
    public let tolerance: Double
    private var last: Double?
    /// Gaps seen so far.
    public private(set) var gapCount = 0
    /// About how many samples the gaps dropped.
    public private(set) var missingSamples = 0
    /// The first few gaps, for the file result's notes.
    public private(set) var firstGaps: [Gap] = []

    /// A detector for samples at `frequency` Hz.
    public init(frequency: Double, tolerance: Double = 1.9) {
        period = 1 / frequency
        self.tolerance = tolerance
        firstGaps.reserveCapacity(Self.keptGaps)
    }

    static let keptGaps = 5

    /// Feeds the next sample time; returns the gap before it, if any.
    @inline(__always)
    public mutating func next(_ uptime: Double) -> Gap? {
        defer { last = uptime }
        guard let last else { return nil }
        let step = uptime - last
        guard step > period * tolerance else { return nil }
        let gap = Gap(after: last, duration: step, missingSamples: max(Int(saturating: (step / period).rounded()).saturatingAdd(-1), 1))
        gapCount += 1
        missingSamples = missingSamples.saturatingAdd(gap.missingSamples)
        if firstGaps.count < Self.keptGaps { firstGaps.append(gap) }
        return gap
    }
}
