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

    /// magnitude × 10^power as an integer-valued Double plus its remainder, for results of
    /// 16–17 digits (at least 2^53, where every Double is an integer): the error-free
    /// transformation with a fused multiply-add gives the product's (or quotient's) rounding
    /// error exactly (within an ulp of the error for powers beyond 10^22). nil when the power
    /// of ten is out of reach.
    @inline(__always)
    static func exactScaled(_ magnitude: Double, power: Int) -> Scaled? {
        if power >= 0 && power <= 22 {
            let factor = exact(power)
            let product = magnitude * factor
            return Scaled(product: product, error: productError(magnitude, factor, product))
        }
        if power > 22 && power <= 44 {
            // 10^power = high + low exactly: the product of two exact powers and its rounding error.
            let high = exact(22) * exact(power - 22)
            let low = (-high).addingProduct(exact(22), exact(power - 22))
            let product = magnitude * high
            return Scaled(product: product, error: (-product).addingProduct(magnitude, high) + magnitude * low)
        }
        if power < 0 && power >= -22 {
            let divisor = exact(-power)
            let quotient = (magnitude / divisor).rounded(.towardZero)
            let remainder = magnitude.addingProduct(-quotient, divisor)  // magnitude − quotient × divisor
            return Scaled(product: quotient, error: remainder / divisor)
        }
        return nil
    }

    /// a × b − product exactly, for product = a × b rounded to nearest (Dekker's TwoProduct with
    /// Veltkamp's splitting; no overflow or underflow for the magnitudes formatted here). Gives
    /// the same value as a fused multiply-add without libm's `fma` call, which the baseline
    /// x86-64 target cannot inline.
    @inline(__always)
    static func productError(_ a: Double, _ b: Double, _ product: Double) -> Double {
        let splitter = 134_217_729.0  // 2^27 + 1
        let scaledA = splitter * a
        let aHigh = scaledA - (scaledA - a)
        let aLow = a - aHigh
        let scaledB = splitter * b
        let bHigh = scaledB - (scaledB - b)
        let bLow = b - bHigh
        return ((aHigh * bHigh - product) + aHigh * bLow + aLow * bHigh) + aLow * bLow
    }

    /// A scaled value as product + error.
    struct Scaled {
        var product: Double
        var error: Double

        /// The product as an integer (exact once it is at least 2^53).
        @inline(__always) var integer: UInt64 { UInt64(product) }

        /// The value rounded to the nearest integer (ties to even, as `rounded(.toNearestOrEven)`,
        /// without libm's `rint` call: adding and subtracting 1.5 × 2^52 rounds any |error| below
        /// 2^51 in the current rounding mode, which is to nearest even).
        @inline(__always) var rounded: UInt64 {
            let magic = 6_755_399_441_055_744.0
            return UInt64(bitPattern: Int64(product) &+ Int64((error + magic) - magic))
        }
    }

    static let tenTo15: UInt64 = 1_000_000_000_000_000
    static let tenTo16: UInt64 = 10_000_000_000_000_000
    static let tenTo17: UInt64 = 100_000_000_000_000_000
}
