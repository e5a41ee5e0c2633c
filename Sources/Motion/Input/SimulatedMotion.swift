import Foundation

/// The pure model behind the simulated IMU: a device held still face-up, or carried by a person
/// walking (about 1.8 steps a second), in CoreMotion units, with sensor-like noise from a
/// seeded generator so runs are reproducible.
public struct SimulatedMotion: Sendable {
    /// What the simulated person does.
    public enum Activity: String, Sendable, CaseIterable {
        case still
        case walking
    }

    /// The simulated activity.
    public var activity: Activity
    private var random: UInt64

    /// Steps per second while walking.
    public static let cadence = 1.8
    /// Earth's field where the model lives, in µT (device frame, face-up, x toward north).
    public static let earthField = (x: 20.0, y: 0.0, z: -45.0)

    /// A model of `activity` whose noise is reproducible from `seed`.
    public init(activity: Activity, seed: UInt64 = 0x5EED_1234_ABCD_0001) {
        self.activity = activity
        random = seed == 0 ? 1 : seed
    }

    /// The sensor's vector at `time` seconds after the start.
    public mutating func sample(_ sensor: SensorKind, at time: Double) -> (x: Double, y: Double, z: Double) {
        let phase = 2 * Double.pi * Self.cadence * time
        switch (sensor, activity) {
        case (.accelerometer, .still):
            return (noise(0.002), noise(0.002), -1 + noise(0.002))
        case (.accelerometer, .walking):
            // Vertical bounce at the step rate, sway at half of it.
            return (
                0.08 * sin(phase / 2) + noise(0.02), 0.05 * sin(phase + 0.5) + noise(0.02),
                -1 + 0.3 * sin(phase) + noise(0.02)
            )
        case (.gyroscope, .still):
            return (noise(0.001), noise(0.001), noise(0.001))
        case (.gyroscope, .walking):
            return (0.35 * sin(phase / 2) + noise(0.01), 0.25 * sin(phase + 1) + noise(0.01), 0.15 * sin(phase / 2 + 2) + noise(0.01))
        case (.magnetometer, _):
            let wobble = activity == .walking ? 2 * sin(phase / 2) : 0
            return (Self.earthField.x + wobble + noise(0.3), Self.earthField.y + noise(0.3), Self.earthField.z + noise(0.3))
        }
    }

    /// Roughly normal noise with standard deviation `sigma` (sum of four uniforms).
    private mutating func noise(_ sigma: Double) -> Double {
        var sum = 0.0
        for _ in 0..<4 { sum += nextUniform() - 0.5 }
        return sum * sigma * 1.7320508075688772  // sqrt(12 / 4)
    }

    private mutating func nextUniform() -> Double {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Double(random >> 11) / Double(1 << 53)
    }
}
