/// Count, mean, standard deviation, minimum and maximum of a stream of values in constant
/// memory (Welford's update, stable for long streams).
public struct RunningStatistics: Sendable, Hashable {
    public private(set) var count = 0
    public private(set) var mean = 0.0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity
    private var sumOfSquaredDeviations = 0.0

    public init() {}

    /// Feeds the next value.
    public mutating func add(_ value: Double) {
        count += 1
        let delta = value - mean
        mean += delta / Double(count)
        sumOfSquaredDeviations += delta * (value - mean)
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }

    /// The population standard deviation (0 for fewer than two values).
    public var standardDeviation: Double {
        count > 1 ? (sumOfSquaredDeviations / Double(count)).squareRoot() : 0
    }
}
