extension SampleByteBuffer {
    /// Appends a Double as a JSON number without allocating.
    ///
    /// Digits: the fewest of 15, 16 or 17 significant digits that provably read back as the
    /// same Double. The 17 digits are correctly rounded (a fused multiply-add gives the exact
    /// scaling error) and always read back; 15 or 16 digits are used when the decimal they
    /// spell lies strictly inside the Double's rounding interval (checked against the exact
    /// scaled value, with a safety margin, so a doubtful case keeps 17 digits). Values that
    /// need fewer than 15 digits come out short anyway, because trailing zeros are dropped
    /// (`0.5`, `-1`, `100`, `9.80665`). The text is usually, not always, Swift's shortest.
    /// Plain notation for magnitudes from 1e-5 to below 1e16, exponent notation (`1.5e-07`,
    /// `2.5e+20`) outside; zero is `0`; NaN and infinities, which JSON cannot hold, are `null`.
    /// Magnitudes outside about 1e-28…1e38 (never sensor data) take Swift's own formatting,
    /// which allocates.
    public mutating func append(double value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        if value == 0 {
            append(UInt8(ascii: "0"))
            return
        }
        let magnitude = value.magnitude
        // magnitude × 10^(16 − decimalExponent) must lie in [10^16, 10^17): the binary exponent
        // gives the decimal one within one, the digit count says which way to correct it.
        var decimalExponent = DecimalPowers.estimateExponent(magnitude)
        guard var scaled = DecimalPowers.exactScaled(magnitude, power: 16 - decimalExponent) else {
            if value.sign == .minus { append(UInt8(ascii: "-")) }
            append(utf8: magnitude.description)
            return
        }
        var digits = scaled.rounded
        if digits >= DecimalPowers.tenTo17 || digits < DecimalPowers.tenTo16 {
            decimalExponent += digits >= DecimalPowers.tenTo17 ? 1 : -1
            guard let corrected = DecimalPowers.exactScaled(magnitude, power: 16 - decimalExponent) else {
                if value.sign == .minus { append(UInt8(ascii: "-")) }
                append(utf8: magnitude.description)
                return
            }
            scaled = corrected
            digits = scaled.rounded
        }
        var count = 17
        if digits >= DecimalPowers.tenTo17 {
            // 9.99…95 rounded up to 10^17: the value is 1 × 10^(exponent + 1).
            digits /= 10
            decimalExponent += 1
        } else {
            // Half the distance to the nearer neighbouring Double, in units of the last of the
            // 17 digits: a decimal closer than that reads back as this Double. In the range
            // handled here every Double is normal: the gap above is the ulp, the gap below
            // half of it at a power of two.
            let ulp = Double(bitPattern: (magnitude.bitPattern & 0x7FF0_0000_0000_0000) &- (52 << 52))
            let halfGap = magnitude.significandBitPattern == 0 ? ulp / 4 : ulp / 2
            let limit = halfGap * DecimalPowers.power(16 - decimalExponent) * (1 - 1e-9)
            // 15 digits, then 16 (constant divisors: no division instruction).
            let candidate15 = (digits + 50) / 100
            let candidate16 = (digits + 5) / 10
            if (Double(Int64(bitPattern: candidate15 &* 100 &- scaled.integer)) - scaled.error).magnitude < limit {
                digits = candidate15
                count = 15
                if candidate15 >= DecimalPowers.tenTo15 {
                    digits /= 10  // rounded up to 10^15
                    decimalExponent += 1
                }
            } else if (Double(Int64(bitPattern: candidate16 &* 10 &- scaled.integer)) - scaled.error).magnitude < limit {
                digits = candidate16
                count = 16
                if candidate16 >= DecimalPowers.tenTo16 {
                    digits /= 10  // rounded up to 10^16
                    decimalExponent += 1
                }
            }
        }
        appendNumber(negative: value.sign == .minus, digits: digits, count: count, decimalExponent: decimalExponent)
    }

    /// Writes ±d.ddd × 10^decimalExponent (`digits` has exactly `count` digits, 15 to 17)
    /// straight into the buffer: the digits go into a stack scratch area two at a time, then
    /// are copied in at most three runs around the point.
    @inline(__always)
    private mutating func appendNumber(negative: Bool, digits: UInt64, count: Int, decimalExponent: Int) {
        // The 15–17 digits, then room for `copy` to read 24 bytes from any digit.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { text in
            let digitText = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
            // Two halves (the low one always 8 digits, since count ≥ 15), two digits per step,
            // to shorten the chain of divisions.
            var high = UInt32(truncatingIfNeeded: digits / 100_000_000)
            var low = UInt32(truncatingIfNeeded: digits % 100_000_000)
            let pairs = DecimalPowers.digitPairs.utf8Start
            var index = count - 1
            for _ in 0..<4 {  // the low half: always 8 digits
                let pair = Int(low % 100) &* 2
                low /= 100
                digitText[index] = pairs[pair + 1]
                digitText[index - 1] = pairs[pair]
                index -= 2
            }
            while index >= 1 {
                let pair = Int(high % 100) &* 2
                high /= 100
                digitText[index] = pairs[pair + 1]
                digitText[index - 1] = pairs[pair]
                index -= 2
            }
            if index == 0 { digitText[0] = pairs[Int(high % 10) &* 2 + 1] }
            var length = count
            while length > 1 && digitText[length - 1] == UInt8(ascii: "0") { length -= 1 }

            // At most 25 bytes (sign, "0.0000" and 17 digits, or sign, 17 digits, ".", "e-308"),
            // plus the slack `copy` overwrites.
            appendUnsafe(maxCount: 48) { out in
                var position = 0
                if negative {
                    out[0] = UInt8(ascii: "-")
                    position = 1
                }
                @inline(__always) func put(_ byte: UInt8) {
                    out[position] = byte
                    position &+= 1
                }
                // Three fixed 8-byte moves instead of a memmove call: the bytes past the range
                // land in reserved space that the next write or the count leaves out.
                @inline(__always) func copy(_ range: Range<Int>) {
                    let source = UnsafeRawPointer(digitText + range.lowerBound)
                    let target = UnsafeMutableRawPointer(out + position)
                    target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    (target + 8).storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), as: UInt64.self)
                    (target + 16).storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: UInt64.self), as: UInt64.self)
                    position &+= range.count
                }
                if decimalExponent >= -5 && decimalExponent < 16 {
                    if decimalExponent < 0 {
                        put(UInt8(ascii: "0"))
                        put(UInt8(ascii: "."))
                        for _ in 0..<(-decimalExponent - 1) { put(UInt8(ascii: "0")) }
                        copy(0..<length)
                    } else {
                        let integerDigits = decimalExponent + 1
                        copy(0..<min(integerDigits, length))
                        if integerDigits > length {
                            for _ in 0..<(integerDigits - length) { put(UInt8(ascii: "0")) }
                        } else if integerDigits < length {
                            put(UInt8(ascii: "."))
                            copy(integerDigits..<length)
                        }
                    }
                } else {
                    put(digitText[0])
                    if length > 1 {
                        put(UInt8(ascii: "."))
                        copy(1..<length)
                    }
                    put(UInt8(ascii: "e"))
                    put(decimalExponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                    let magnitude = Int(decimalExponent.magnitude)
                    if magnitude >= 100 { put(UInt8(ascii: "0") &+ UInt8(magnitude / 100)) }
                    put(UInt8(ascii: "0") &+ UInt8(magnitude / 10 % 10))
                    put(UInt8(ascii: "0") &+ UInt8(magnitude % 10))
                }
                return position
            }
        }
    }
}
