/// Reduces a long series to the smallest and largest value in each pixel column, so a
/// ten-minute 1 kHz recording draws as the same few thousand points as a short one and still
/// shows every spike.
public struct MinMaxDecimator: Sendable, Hashable {
    public let start: Double
    public let end: Double
    public let columns: Int
    public private(set) var minimum: [Double]
    public private(set) var maximum: [Double]
    /// The time of the first and last value in each column, to tell a gap from sparse samples.
    public private(set) var firstTime: [Double]
    public private(set) var lastTime: [Double]

    /// A decimator of the time range `start…end` into `columns` columns.
    public init(start: Double, end: Double, columns: Int) {
        self.start = start
        self.end = max(end, start + 1e-9)
        self.columns = max(columns, 1)
        minimum = Array(repeating: .infinity, count: self.columns)
        maximum = Array(repeating: -.infinity, count: self.columns)
        firstTime = Array(repeating: .infinity, count: self.columns)
        lastTime = Array(repeating: -.infinity, count: self.columns)
    }

    /// The column of `time`, nil outside the range.
    @inline(__always)
    public func column(of time: Double) -> Int? {
        guard time >= start, time <= end else { return nil }
        return min(Int((time - start) / (end - start) * Double(columns)), columns - 1)
    }

    /// Adds one value at `time`; values outside the range or not finite are ignored.
    @inline(__always)
    public mutating func add(_ value: Double, at time: Double) {
        guard value.isFinite, let column = column(of: time) else { return }
        if value < minimum[column] { minimum[column] = value }
        if value > maximum[column] { maximum[column] = value }
        if time < firstTime[column] { firstTime[column] = time }
        if time > lastTime[column] { lastTime[column] = time }
    }

    /// Adds a value that holds over `from…to` (a one-second audio level) to every column the span covers.
    public mutating func add(_ value: Double, from: Double, to: Double) {
        guard value.isFinite, to >= from else { return }
        guard let first = column(of: Swift.max(from, start)), let last = column(of: Swift.min(to, end)) else { return }
        for column in first...last {
            if value < minimum[column] { minimum[column] = value }
            if value > maximum[column] { maximum[column] = value }
            firstTime[column] = Swift.min(firstTime[column], Swift.max(from, start))
            lastTime[column] = Swift.max(lastTime[column], Swift.min(to, end))
        }
    }

    /// The columns that received values, with their minimum and maximum, in order.
    public var filledColumns: [(column: Int, minimum: Double, maximum: Double)] {
        (0..<columns).compactMap { maximum[$0] >= minimum[$0] ? ($0, minimum[$0], maximum[$0]) : nil }
    }

    /// The smallest and largest value seen, nil when empty.
    public var valueRange: ClosedRange<Double>? {
        let filled = filledColumns
        guard let low = filled.map(\.minimum).min(), let high = filled.map(\.maximum).max() else { return nil }
        return low...high
    }
}
