/// Gyroscope bias (offset) estimation while the device is still, after the method of Fusion's
/// `FusionOffset`: once every axis has stayed below a threshold (and the accelerometer near 1 g)
/// for a while, the bias follows the raw reading through a first-order low-pass filter.
public struct GyroBiasEstimator: Sendable {
    /// Tuning; faster than Fusion's defaults (3°/s, 5 s, 0.02 Hz) so the bias is gone within a
    /// few seconds of rest, at the price of absorbing rotations slower than the threshold that
    /// last longer than `stillDuration`.
    public struct Settings: Hashable, Sendable {
        /// rad/s on every axis (after bias removal) below which the device counts as still.
        public var threshold: Double = 3 * .pi / 180
        /// g of accelerometer magnitude deviation from 1 g tolerated while still.
        public var accelerationTolerance: Double = 0.1
        /// Seconds of stillness before the bias starts to adapt.
        public var stillDuration: Double = 1
        /// Time constant, in seconds, of the low-pass filter tracking the bias.
        public var timeConstant: Double = 1.5

        public init() {}
    }

    public let settings: Settings
    /// The current bias estimate in rad/s, to subtract from the gyroscope.
    public private(set) var bias: Vector3 = .zero
    private var stillTime: Double = 0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Whether the device has been still long enough for the bias to adapt.
    public var isStill: Bool { stillTime >= settings.stillDuration }

    /// Feeds one gyroscope sample (rad/s) with the accelerometer at the same time (g), `deltaTime`
    /// seconds after the previous one.
    public mutating func update(gyro: Vector3, accelerometer: Vector3, deltaTime: Double) {
        let corrected = gyro - bias
        let threshold = settings.threshold
        guard abs(corrected.x) <= threshold, abs(corrected.y) <= threshold,
            abs(corrected.z) <= threshold,
            abs(accelerometer.magnitude - 1) <= settings.accelerationTolerance
        else {
            stillTime = 0
            return
        }
        stillTime += deltaTime
        guard isStill else { return }
        bias += corrected * min(1, deltaTime / settings.timeConstant)
    }
}
