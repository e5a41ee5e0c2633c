/// The largest and smallest value of one axis and how many samples sat exactly on each. A
/// sensor driven past its full scale reads its limit again and again; a natural peak is hit
/// once or twice.
public struct ExtremeTracker: Sendable, Hashable {
    public private(set) var maximum = -Double.infinity
    public private(set) var samplesAtMaximum = 0
    public private(set) var minimum = Double.infinity
    public private(set) var samplesAtMinimum = 0

    public init() {}

    /// Feeds the next value.
    public mutating func next(_ value: Double) {
        if value > maximum {
            maximum = value
            samplesAtMaximum = 1
        } else if value == maximum {
            samplesAtMaximum += 1
        }
        if value < minimum {
            minimum = value
            samplesAtMinimum = 1
        } else if value == minimum {
            samplesAtMinimum += 1
        }
    }

    /// Samples pinned at an extreme whose magnitude reaches `fullScale`, counted only when at
    /// least `minimumSamples` sit on it; an axis holding a single value is stuck, not clipped.
    public func clippedSamples(fullScale: Double, minimumSamples: Int) -> Int {
        guard maximum > minimum else { return 0 }
        var clipped = 0
        if abs(maximum) >= fullScale && samplesAtMaximum >= minimumSamples { clipped += samplesAtMaximum }
        if abs(minimum) >= fullScale && samplesAtMinimum >= minimumSamples { clipped += samplesAtMinimum }
        return clipped
    }

    /// The extreme (largest magnitude) value that counted as clipped, if any.
    public func clippedValue(fullScale: Double, minimumSamples: Int) -> Double? {
        guard maximum > minimum else { return nil }
        let top = abs(maximum) >= fullScale && samplesAtMaximum >= minimumSamples ? maximum : nil
        let bottom = abs(minimum) >= fullScale && samplesAtMinimum >= minimumSamples ? minimum : nil
        switch (top, bottom) {
        case let (top?, bottom?): return abs(top) >= abs(bottom) ? top : bottom
        case let (top?, nil): return top
        case let (nil, bottom?): return bottom
        case (nil, nil): return nil
        }
    }
}
