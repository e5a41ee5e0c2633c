extension ByteBuffer {
    /// Appends a Double as a JSON number without allocating.
    ///
    /// The digits are the first of 15 or 16 significant digits that reads back as the same
    /// Double, checked exactly (Clinger's fast path: digits below 2^53 and a power of ten up to
    /// 10^22); otherwise 17 correctly rounded significant digits (a fused multiply-add gives the
    /// exact scaling error), which always read back as the same Double. Magnitudes outside
    /// about 1e-28…1e38 fall back to 17 digits within one unit in the last place. The text is
    /// often, not always, the shortest (Swift's `description` may use fewer digits). Trailing zeros are dropped (`0.5`, `-1`, `100`).
    /// Plain notation is used for magnitudes from 1e-5 to below 1e16, exponent notation
    /// (`1.5e-07`) outside; zero is `0`; NaN and infinities, which JSON cannot hold, are `null`.
    public mutating func append(double value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var exponent = DecimalPowers.estimateExponent(magnitude)
        // Correct the estimate so that 10^exponent <= magnitude < 10^(exponent+1).
        if magnitude < DecimalPowers.power(exponent) { exponent -= 1 }
        if magnitude >= DecimalPowers.power(exponent + 1) { exponent += 1 }

        var digits: UInt64 = 0
        var count = 15
        var decimalExponent = exponent
        while true {
            guard let scaled = DecimalPowers.scale(magnitude, byPowerOfTen: count - 1 - exponent) else {
                appendSlow(magnitude)
                return
            }
            var rounded = scaled.rounded(.toNearestOrEven)
            decimalExponent = exponent
            if rounded >= DecimalPowers.power(count) {  // 9.99…5 rounded up to 10.0…
                rounded /= 10
                decimalExponent += 1
            }
            digits = UInt64(rounded)
            if count == 17 {
                // Correct the 17 digits with the product's exact rounding error, so the text
                // reads back as the same Double.
                digits = DecimalPowers.exactDigits(magnitude, power: count - 1 - exponent, approximate: digits)
                decimalExponent = exponent
                if digits >= 100_000_000_000_000_000 {  // rounded up to 10^17
                    digits /= 10
                    decimalExponent += 1
                }
                break
            }
            if DecimalPowers.readsBack(digits, powerOfTen: decimalExponent - (count - 1), as: magnitude) { break }
            count += 1
        }
        appendDigits(digits, count: count, decimalExponent: decimalExponent)
    }

    /// Writes `digits` (exactly `count` digits, the first nonzero) as d.ddd × 10^decimalExponent.
    private mutating func appendDigits(_ digits: UInt64, count: Int, decimalExponent: Int) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { text in
            var remaining = digits
            var length = count
            for index in stride(from: count - 1, through: 0, by: -1) {
                text[index] = UInt8(ascii: "0") &+ UInt8(remaining % 10)
                remaining /= 10
            }
            while length > 1 && text[length - 1] == UInt8(ascii: "0") { length -= 1 }
            if decimalExponent >= -5 && decimalExponent < 16 {
                if decimalExponent < 0 {
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "."))
                    for _ in 0..<(-decimalExponent - 1) { bytes.append(UInt8(ascii: "0")) }
                    for index in 0..<length { bytes.append(text[index]) }
                } else {
                    let integerDigits = decimalExponent + 1
                    for index in 0..<min(integerDigits, length) { bytes.append(text[index]) }
                    if integerDigits > length {
                        for _ in 0..<(integerDigits - length) { bytes.append(UInt8(ascii: "0")) }
                    } else if integerDigits < length {
                        bytes.append(UInt8(ascii: "."))
                        for index in integerDigits..<length { bytes.append(text[index]) }
                    }
                }
            } else {
                bytes.append(text[0])
                if length > 1 {
                    bytes.append(UInt8(ascii: "."))
                    for index in 1..<length { bytes.append(text[index]) }
                }
                bytes.append(UInt8(ascii: "e"))
                bytes.append(decimalExponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let magnitude = decimalExponent.magnitude
                if magnitude < 10 { bytes.append(UInt8(ascii: "0")) }
                append(unsigned: magnitude)
            }
        }
    }

    /// Values whose scaling leaves the exactly representable powers of ten (beyond 1e±300):
    /// Swift's own shortest formatting, which allocates; sensor data never gets here.
    private mutating func appendSlow(_ magnitude: Double) {
        append(utf8: magnitude.description)
    }
}

/// Powers of ten for `append(double:)`.
enum DecimalPowers {
    /// 10^0 … 10^22, all exact in a Double.
    static let exact: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// 10^exponent, exact for 0…22 and correctly rounded (from the literal parser) elsewhere.
    @inline(__always)
    static func power(_ exponent: Int) -> Double {
        if exponent >= 0 && exponent <= 22 { return exact[exponent] }
        if exponent < 0 && exponent >= -22 { return 1 / exact[-exponent] }
        return pow10(exponent)
    }

    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        var remaining = exponent.magnitude
        var base = exponent < 0 ? 0.1 : 10.0
        // Exponentiation by squaring; only for magnitudes sensor data never has.
        while remaining > 0 {
            if remaining & 1 == 1 { result *= base }
            base *= base
            remaining >>= 1
        }
        return result
    }

    /// floor(log10(magnitude)) within one, from the binary exponent (no libm call).
    @inline(__always)
    static func estimateExponent(_ magnitude: Double) -> Int {
        let binary = Int(magnitude.exponent)
        return (binary * 78913) >> 18  // 78913 / 2^18 ≈ log10(2)
    }

    /// magnitude × 10^power as a Double, dividing by exact powers where the power is negative
    /// so that one rounding happens; nil when the power is out of the exact range twice over.
    @inline(__always)
    static func scale(_ magnitude: Double, byPowerOfTen power: Int) -> Double? {
        if power >= 0 {
            if power <= 22 { return magnitude * exact[power] }
            if power <= 44 { return magnitude * exact[power - 22] * exact[22] }
            return nil
        }
        if power >= -22 { return magnitude / exact[-power] }
        if power >= -44 { return magnitude / exact[22] / exact[-power - 22] }
        return nil
    }

    /// magnitude × 10^power rounded to an integer exactly, for results of 17 digits (at least
    /// 2^53, where every Double is an integer): the error-free transformation with a fused
    /// multiply-add gives the product's (or quotient's) remainder. Falls back to `approximate`
    /// when the power of ten itself is not exact.
    @inline(__always)
    static func exactDigits(_ magnitude: Double, power: Int, approximate: UInt64) -> UInt64 {
        if power >= 0 && power <= 22 {
            let factor = exact[power]
            let product = magnitude * factor
            let error = (-product).addingProduct(magnitude, factor)  // exact: magnitude × factor − product
            return UInt64(Int64(product) + Int64(error.rounded(.toNearestOrEven)))
        }
        if power > 22 && power <= 44 {
            // 10^power = high + low exactly: the product of two exact powers and its rounding error.
            let high = exact[22] * exact[power - 22]
            let low = (-high).addingProduct(exact[22], exact[power - 22])
            let product = magnitude * high
            let error = (-product).addingProduct(magnitude, high) + magnitude * low
            return UInt64(Int64(product) + Int64(error.rounded(.toNearestOrEven)))
        }
        if power < 0 && power >= -22 {
            let divisor = exact[-power]
            let quotient = (magnitude / divisor).rounded(.towardZero)
            let remainder = magnitude.addingProduct(-quotient, divisor)  // exact: magnitude − quotient × divisor
            return UInt64(Int64(quotient) + Int64((remainder / divisor).rounded(.toNearestOrEven)))
        }
        return approximate
    }

    /// Whether digits × 10^power reads back as `magnitude`, decided exactly by Clinger's fast
    /// path (digits < 2^53, |power| ≤ 22); false when that cannot decide.
    @inline(__always)
    static func readsBack(_ digits: UInt64, powerOfTen power: Int, as magnitude: Double) -> Bool {
        guard digits < (1 << 53) else { return false }
        let value = Double(digits)
        if power >= 0 {
            guard power <= 22 else { return false }
            return value * exact[power] == magnitude
        }
        guard power >= -22 else { return false }
        return value / exact[-power] == magnitude
    }
}
