/// A Prometheus histogram's state: observations counted into buckets by upper bound, with
/// their sum and count. Codable, so that a process can keep it across restarts.
public struct MetricHistogram: Sendable, Hashable, Codable {
    /// The buckets' upper bounds, ascending; `+Inf` is implied.
    public private(set) var upperBounds: [Double]
    /// Observations per bucket (not cumulative), one more than `upperBounds` for `+Inf`.
    public private(set) var counts: [UInt64]
    public private(set) var sum: Double
    public private(set) var count: UInt64

    /// An empty histogram with `upperBounds` (sorted, duplicates dropped).
    public init(upperBounds: [Double]) {
        self.upperBounds = Array(Set(upperBounds.filter(\.isFinite))).sorted()
        counts = Array(repeating: 0, count: self.upperBounds.count + 1)
        sum = 0
        count = 0
    }

    /// Counts `value` into the first bucket whose bound is at or above it; NaN is ignored.
    public mutating func observe(_ value: Double) {
        guard !value.isNaN else { return }
        let index = upperBounds.firstIndex { value <= $0 } ?? upperBounds.count
        counts[index] += 1
        sum += value
        count += 1
    }

    /// The histogram's lines with `labels`: cumulative `_bucket{le}` lines up to `+Inf`, then
    /// `_sum` and `_count`.
    public func samples(labels: [MetricFamily.Label] = []) -> [MetricFamily.Sample] {
        var samples: [MetricFamily.Sample] = []
        var cumulative: UInt64 = 0
        for (index, bound) in (upperBounds + [.infinity]).enumerated() {
            cumulative += counts[index]
            samples.append(.init(suffix: "_bucket", labels: labels + [.init("le", MetricFamily.format(bound))], value: Double(cumulative)))
        }
        samples.append(.init(suffix: "_sum", labels: labels, value: sum))
        samples.append(.init(suffix: "_count", labels: labels, value: Double(count)))
        return samples
    }
}
