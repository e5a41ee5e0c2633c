/// Detects rest: the gyroscope and accelerometer stay within small thresholds of their own
/// low-passed values (and the low-passed gyro within the plausible bias) for a minimum time.
/// At rest the low-passed gyroscope is a direct measurement of its bias.
struct RestDetector: Sendable {
    struct Settings: Hashable, Sendable {
        /// rad/s of deviation of the gyro from its low-passed value tolerated at rest.
        var gyroThreshold: Double
        /// g of deviation of the accelerometer from its low-passed value tolerated at rest.
        var accelerationThreshold: Double
        /// Seconds within the thresholds before rest is declared.
        var minimumDuration: Double
        /// Time constant in seconds of the low-pass filters.
        var timeConstant: Double
        /// rad/s: a low-passed gyro above this on any axis is motion, not bias.
        var biasLimit: Double
    }

    let settings: Settings
    private(set) var gyro: VectorLowPass
    private(set) var accelerometer: VectorLowPass
    private var restTime = 0.0
    /// Whether the device is at rest.
    private(set) var isRest = false

    init(settings: Settings) {
        self.settings = settings
        gyro = VectorLowPass(timeConstant: settings.timeConstant)
        accelerometer = VectorLowPass(timeConstant: settings.timeConstant)
    }

    /// The gyro (rad/s, bias included) low-passed.
    var lowPassedGyro: Vector3 { gyro.output }

    mutating func update(
        gyro rate: Vector3, accelerometer acceleration: Vector3, deltaTime: Double,
        coefficients: LowPassCoefficients
    ) {
        let gyroMean = gyro.update(rate, deltaTime: deltaTime, coefficients: coefficients)
        let accelerationMean = accelerometer.update(
            acceleration, deltaTime: deltaTime, coefficients: coefficients)
        let limit = settings.biasLimit
        let still = (rate - gyroMean).magnitudeSquared < settings.gyroThreshold * settings.gyroThreshold
            && (acceleration - accelerationMean).magnitudeSquared
                < settings.accelerationThreshold * settings.accelerationThreshold
            && abs(gyroMean.x) <= limit && abs(gyroMean.y) <= limit && abs(gyroMean.z) <= limit
        if still {
            restTime += deltaTime
            isRest = restTime >= settings.minimumDuration
        } else {
            restTime = 0
            isRest = false
        }
    }
}
