/// The coin that orders the hands when the participant chooses `both` (MotorControl draws left
/// or right first with probability ½). A value type with its own state: seeded in tests, seeded
/// from the system's generator in a run.
public struct HandCoin: Sendable, Hashable {
    private var state: UInt64

    /// A coin whose throws follow from `seed` (SplitMix64).
    public init(seed: UInt64) {
        state = seed
    }

    /// A coin seeded from the system's random generator.
    public static func system() -> HandCoin {
        var generator = SystemRandomNumberGenerator()
        return HandCoin(seed: generator.next())
    }

    /// Throws the coin: true when the left hand goes first.
    public mutating func leftFirst() -> Bool {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z & 1 == 0
    }
}
