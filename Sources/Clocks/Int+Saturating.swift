extension Int {
    /// `value` rounded toward zero and clamped to Int's range; NaN is 0. For counts and sizes
    /// computed from durations and rates an input may make huge (a task's `duration` of 1e300
    /// seconds must not trap the daemon).
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Int.max) {  // 2^63: the first Double beyond Int
            self = .max
        } else if value <= Double(Int.min) {
            self = .min
        } else {
            self = Int(value)
        }
    }

    /// `self + other`, clamped to Int's range instead of trapping.
    public func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self × other`, clamped to Int's range instead of trapping.
    public func saturatingMultiply(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
