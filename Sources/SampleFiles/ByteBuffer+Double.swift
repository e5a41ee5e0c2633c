extension ByteBuffer {
    /// Appends a Double as a JSON number without allocating.
    ///
    /// Digits: the first of 15 or 16 significant digits that reads back as the same Double,
    /// checked exactly (Clinger's fast path: digits below 2^53, a power of ten up to 10^22);
    /// otherwise 17 correctly rounded significant digits (a fused multiply-add gives the exact
    /// scaling error), which always read back as the same Double. Magnitudes outside about
    /// 1e-28…1e38 fall back to 17 digits within one unit in the last place. The text is often,
    /// not always, the shortest (Swift's `description` may use fewer digits). Trailing zeros are
    /// dropped (`0.5`, `-1`, `100`). Plain notation for magnitudes from 1e-5 to below 1e16,
    /// exponent notation (`1.5e-07`, `2.5e+20`) outside; zero is `0`; NaN and infinities,
    /// which JSON cannot hold, are `null`.
    public mutating func append(double value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let magnitude = value.magnitude
        // 17 correctly rounded digits first. The binary exponent gives the decimal one within
        // one; the digit count tells which way to correct it.
        var decimalExponent = DecimalPowers.estimateExponent(magnitude)
        guard var digits = DecimalPowers.exactDigits(magnitude, power: 16 - decimalExponent) else {
            if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            append(utf8: magnitude.description)  // beyond about 1e±30: allocates, never sensor data
            return
        }
        if digits >= 100_000_000_000_000_000 || digits < 10_000_000_000_000_000 {
            decimalExponent += digits >= 100_000_000_000_000_000 ? 1 : -1
            digits = DecimalPowers.exactDigits(magnitude, power: 16 - decimalExponent) ?? digits
            if digits >= 100_000_000_000_000_000 {  // 9.99…5 rounded up to 10^17
                digits /= 10
                decimalExponent += 1
            }
        }
        // Then the 16- and 15-digit roundings of them, when they read back exactly. If 16
        // digits provably do not, 15 cannot either; 16 digits above 2^53 cannot be checked
        // exactly, so 15 is still tried.
        var count = 17
        for shorter in stride(from: 16, through: 15, by: -1) {
            let divisor: UInt64 = shorter == 16 ? 10 : 100
            var candidate = (digits + divisor / 2) / divisor
            var candidateExponent = decimalExponent
            if candidate >= (shorter == 16 ? 10_000_000_000_000_000 : 1_000_000_000_000_000) {
                candidate /= 10
                candidateExponent += 1
            }
            switch DecimalPowers.readsBack(candidate, powerOfTen: candidateExponent - (shorter - 1), as: magnitude) {
            case true?: count = shorter
            case false?: break
            case nil: continue
            }
            if count != shorter { break }
        }
        if count < 17 {
            let divisor: UInt64 = count == 16 ? 10 : 100
            let rounded = (digits + divisor / 2) / divisor
            if rounded >= (count == 16 ? 10_000_000_000_000_000 : 1_000_000_000_000_000) {
                digits = rounded / 10
                decimalExponent += 1
            } else {
                digits = rounded
            }
        }
        appendNumber(negative: value.sign == .minus, digits: digits, count: count, decimalExponent: decimalExponent)
    }

    /// Writes ±d.ddd × 10^decimalExponent (`digits` has exactly `count` digits) into a stack
    /// scratch area, then appends it in one copy.
    @inline(__always)
    private mutating func appendNumber(negative: Bool, digits: UInt64, count: Int, decimalExponent: Int) {
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)  // 48 bytes
        withUnsafeMutableBytes(of: &scratch) { text in
            // Digits first, at the end of the scratch, most significant first.
            let digitStart = 24
            // Two halves (the low one always 8 digits, since count ≥ 15), two digits per step,
            // to shorten the chain of divisions.
            let high = UInt32(truncatingIfNeeded: digits / 100_000_000)
            var low = UInt32(truncatingIfNeeded: digits % 100_000_000)
            var highRemaining = high
            var index = digitStart + count - 1
            DecimalPowers.digitPairs.withUTF8Buffer { pairs in
                for _ in 0..<4 {  // the low half: always 8 digits
                    let pair = Int(low % 100) * 2
                    low /= 100
                    text[index] = pairs[pair + 1]
                    text[index - 1] = pairs[pair]
                    index -= 2
                }
                while index >= digitStart {
                    let pair = Int(highRemaining % 100) * 2
                    highRemaining /= 100
                    text[index] = pairs[pair + 1]
                    if index - 1 >= digitStart { text[index - 1] = pairs[pair] }
                    index -= 2
                }
            }
            var length = count
            while length > 1 && text[digitStart + length - 1] == UInt8(ascii: "0") { length -= 1 }

            var out = 0
            if negative {
                text[out] = UInt8(ascii: "-")
                out += 1
            }
            @inline(__always) func put(_ byte: UInt8) {
                text[out] = byte
                out += 1
            }
            if decimalExponent >= -5 && decimalExponent < 16 {
                if decimalExponent < 0 {
                    put(UInt8(ascii: "0"))
                    put(UInt8(ascii: "."))
                    for _ in 0..<(-decimalExponent - 1) { put(UInt8(ascii: "0")) }
                    for index in 0..<length { put(text[digitStart + index]) }
                } else {
                    let integerDigits = decimalExponent + 1
                    for index in 0..<min(integerDigits, length) { put(text[digitStart + index]) }
                    if integerDigits > length {
                        for _ in 0..<(integerDigits - length) { put(UInt8(ascii: "0")) }
                    } else if integerDigits < length {
                        put(UInt8(ascii: "."))
                        for index in integerDigits..<length { put(text[digitStart + index]) }
                    }
                }
            } else {
                put(text[digitStart])
                if length > 1 {
                    put(UInt8(ascii: "."))
                    for index in 1..<length { put(text[digitStart + index]) }
                }
                put(UInt8(ascii: "e"))
                put(decimalExponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let magnitude = Int(decimalExponent.magnitude)
                if magnitude >= 100 { put(UInt8(ascii: "0") &+ UInt8(magnitude / 100)) }
                put(UInt8(ascii: "0") &+ UInt8(magnitude / 10 % 10))
                put(UInt8(ascii: "0") &+ UInt8(magnitude % 10))
            }
            // The text never overlaps the digits it copied from: it is shorter than 24 bytes
            // before the digits were read (sign + "0." + 5 zeros + 17 digits at most, copied
            // front to back from 24+).
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[0..<out]))
        }
    }
}

/// Powers of ten for `append(double:)`.
enum DecimalPowers {
    /// "00" … "99", for writing two digits per step.
    static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// 10^exponent for 0…22, all exact in a Double (a switch compiles to a constant table,
    /// with no lazy global or array to retain on the hot path).
    @inline(__always)
    static func exact(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// 10^exponent, exact for 0…22 and within an ulp or so elsewhere (only used to compare).
    @inline(__always)
    static func power(_ exponent: Int) -> Double {
        if exponent >= 0 && exponent <= 22 { return exact(exponent) }
        if exponent < 0 && exponent >= -22 { return 1 / exact(-exponent) }
        return pow10(exponent)
    }

    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        var remaining = exponent.magnitude
        var base = exponent < 0 ? 0.1 : 10.0
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
        (Int(magnitude.exponent) * 78913) >> 18  // 78913 / 2^18 ≈ log10(2)
    }

    /// magnitude × 10^power rounded to an integer exactly, for results of 17 digits (at least
    /// 2^53, where every Double is an integer): the error-free transformation with a fused
    /// multiply-add gives the product's (or quotient's) remainder. nil when the power of ten is
    /// out of reach (|power| beyond what two exact powers cover).
    @inline(__always)
    static func exactDigits(_ magnitude: Double, power: Int) -> UInt64? {
        if power >= 0 && power <= 22 {
            let factor = exact(power)
            let product = magnitude * factor
            let error = (-product).addingProduct(magnitude, factor)  // exact: magnitude × factor − product
            return UInt64(Int64(product) + Int64(error.rounded(.toNearestOrEven)))
        }
        if power > 22 && power <= 44 {
            // 10^power = high + low exactly: the product of two exact powers and its rounding error.
            let high = exact(22) * exact(power - 22)
            let low = (-high).addingProduct(exact(22), exact(power - 22))
            let product = magnitude * high
            let error = (-product).addingProduct(magnitude, high) + magnitude * low
            return UInt64(Int64(product) + Int64(error.rounded(.toNearestOrEven)))
        }
        if power < 0 && power >= -22 {
            let divisor = exact(-power)
            let quotient = (magnitude / divisor).rounded(.towardZero)
            let remainder = magnitude.addingProduct(-quotient, divisor)  // magnitude − quotient × divisor
            return UInt64(Int64(quotient) + Int64((remainder / divisor).rounded(.toNearestOrEven)))
        }
        return nil
    }

    /// Whether digits × 10^power reads back as `magnitude`, decided exactly by Clinger's fast
    /// path (digits < 2^53, |power| ≤ 22); nil when that cannot decide.
    @inline(__always)
    static func readsBack(_ digits: UInt64, powerOfTen power: Int, as magnitude: Double) -> Bool? {
        guard digits < (1 << 53) else { return nil }
        let value = Double(digits)
        if power >= 0 {
            guard power <= 22 else { return nil }
            return value * exact(power) == magnitude
        }
        guard power >= -22 else { return nil }
        return value / exact(-power) == magnitude
    }
}
