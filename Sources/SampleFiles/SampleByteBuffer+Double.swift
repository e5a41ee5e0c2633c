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
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let magnitude = value.magnitude
        // magnitude × 10^(16 − decimalExponent) must lie in [10^16, 10^17): the binary exponent
        // gives the decimal one within one, the digit count says which way to correct it.
        var decimalExponent = DecimalPowers.estimateExponent(magnitude)
        guard var scaled = DecimalPowers.exactScaled(magnitude, power: 16 - decimalExponent) else {
            if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            append(utf8: magnitude.description)
            return
        }
        var digits = scaled.rounded
        if digits >= DecimalPowers.tenTo17 || digits < DecimalPowers.tenTo16 {
            decimalExponent += digits >= DecimalPowers.tenTo17 ? 1 : -1
            guard let corrected = DecimalPowers.exactScaled(magnitude, power: 16 - decimalExponent) else {
                if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
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
            // 17 digits: a decimal closer than that reads back as this Double.
            let halfGap = min(magnitude.nextUp - magnitude, magnitude - magnitude.nextDown) / 2
            let limit = halfGap * DecimalPowers.power(16 - decimalExponent) * (1 - 1e-9)
            for shorter in 15...16 {
                let unit: UInt64 = shorter == 15 ? 100 : 10
                let candidate = (digits + unit / 2) / unit
                let distance = Double(Int64(bitPattern: candidate &* unit &- scaled.integer)) - scaled.error
                if distance.magnitude < limit {
                    digits = candidate
                    count = shorter
                    if candidate >= (shorter == 15 ? DecimalPowers.tenTo15 : DecimalPowers.tenTo16) {
                        digits /= 10  // rounded up to 10^count
                        decimalExponent += 1
                    }
                    break
                }
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
