extension SampleByteBuffer {
    /// Appends `value` in plain decimal with exactly `fractionDigits` digits after the point
    /// (rounded half away from zero), without allocating. Non-finite values, which JSON cannot
    /// hold, are written as `null`. `fractionDigits` is at most 9.
    public mutating func append(fixed value: Double, fractionDigits: Int) {
        guard value.isFinite else {
            append("null")
            return
        }
        let digits = min(max(fractionDigits, 0), 9)
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else {
            // Beyond fixed-point range: integers that large carry no useful fraction anyway.
            if value < 0 { append(UInt8(ascii: "-")) }
            append(unsigned: UInt(value.magnitude.rounded()))
            return
        }
        let whole = UInt64(scaled)
        if value < 0 && whole != 0 { append(UInt8(ascii: "-")) }
        append(unsigned: UInt(whole / scale))
        guard digits > 0 else { return }
        append(UInt8(ascii: "."))
        var fraction = whole % scale
        var divisor = scale / 10
        while divisor > 0 {
            append(UInt8(ascii: "0") &+ UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
