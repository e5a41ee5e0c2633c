import RealModule

/// The attitude filter, after the structure of VQF (D. Laidig and T. Seel, "VQF: Highly accurate
/// IMU orientation estimation with bias estimation and magnetic disturbance rejection",
/// Information Fusion 91, 2023): the attitude is the product of three parts,
///
///     attitude = heading(δ about Z) ⊗ inclination ⊗ strapdown
///
/// - *strapdown*: the bias-corrected gyroscope integrated exactly, sample by sample;
/// - *inclination*: the accelerometer is rotated into the strapdown frame (an inertial frame up
///   to the slow gyro drift), low-passed there with a second-order filter (time constant
///   `accelerationTimeConstant`) and the inclination correction is set each sample so that this
///   low-passed direction is vertical. Linear acceleration of a hand-held or walking device
///   averages out in an inertial frame within seconds, so no rejection threshold and recovery
///   period are needed (the cause of Fusion's failures under sustained translation);
/// - *heading* (North-West-Up only): the horizontal magnetic field, in the inclination-corrected
///   frame, pulls δ with a first-order filter (`magneticTimeConstant`), gated by
///   `MagneticDisturbanceDetector`; the measured up is never used, so acceleration cannot leak
///   into heading.
///
/// The gyro bias (`GyroBiasEstimator`) is updated at rest (detected by `RestDetector`) and in
/// motion from the inclination correction.
public struct OrientationFilter: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Seconds of the accelerometer low-pass in the inertial frame (VQF's default 3 s).
        public var accelerationTimeConstant: Double = 3
        /// Seconds of the heading correction's first-order filter (VQF's default 9 s; kept by the
        /// cross-validation on BROAD with its per-trial rule, docs/fusion.md, "Cross-validated").
        public var magneticTimeConstant: Double = 9
        /// Rest detection: gyro and accelerometer deviations tolerated (rad/s, g), minimum time
        /// and filter time constant (s).
        public var restGyroThreshold: Double = 2 * .pi / 180
        public var restAccelerationThreshold: Double = 0.05
        public var restMinimumDuration: Double = 1.5
        public var restTimeConstant: Double = 0.5
        public var bias = GyroBiasEstimator.Settings()
        public var magneticDisturbance = MagneticDisturbanceDetector.Settings()
        /// Whether magnetic disturbances are detected and rejected.
        public var rejectsMagneticDisturbance = true

        public init() {}
    }

    public let settings: Settings
    /// Current attitude: device frame → reference frame.
    public private(set) var attitude: Quaternion = .identity
    /// Whether the attitude has been set from a first accelerometer sample.
    public private(set) var isInitialised = false
    /// Whether the heading has been corrected by a magnetometer sample (North-West-Up only).
    public private(set) var isHeadingInitialised = false

    private var strapdown: Quaternion = .identity
    private var inclination: Quaternion = .identity
    private var heading = 0.0
    /// The rotation by `heading` about Z, kept up to date by small steps (no sin/cos per sample).
    private var headingRotation: Quaternion = .identity
    /// 1 − exp(−T / magneticTimeConstant) for the nominal sample period T.
    private var magneticGain = 0.0
    private var headingStartGain = 1.0
    private var biasEstimator: GyroBiasEstimator
    private var restDetector: RestDetector
    private var disturbance: MagneticDisturbanceDetector
    private var acceleration: VectorLowPass
    // Low-passed observation matrix and bias image for the motion bias update.
    private var observation: (VectorLowPass, VectorLowPass, VectorLowPass)
    private var explainedRate: VectorLowPass

    /// Filter coefficients for `samplePeriod`, recomputed when the smoothed period drifts.
    private var samplePeriod = 0.0
    private var coefficientPeriod = 0.0
    private var accelerationCoefficients = LowPassCoefficients(timeConstant: 0, samplePeriod: 0)
    private var restCoefficients = LowPassCoefficients(timeConstant: 0, samplePeriod: 0)
    private var magneticCoefficients = LowPassCoefficients(timeConstant: 0, samplePeriod: 0)

    public init(settings: Settings = Settings()) {
        self.settings = settings
        biasEstimator = GyroBiasEstimator(settings: settings.bias)
        restDetector = RestDetector(settings: .init(
            gyroThreshold: settings.restGyroThreshold,
            accelerationThreshold: settings.restAccelerationThreshold,
            minimumDuration: settings.restMinimumDuration, timeConstant: settings.restTimeConstant,
            biasLimit: settings.bias.limit * .pi / 180))
        disturbance = MagneticDisturbanceDetector(settings: settings.magneticDisturbance)
        let tau = settings.accelerationTimeConstant
        acceleration = VectorLowPass(timeConstant: tau)
        observation = (VectorLowPass(timeConstant: tau), VectorLowPass(timeConstant: tau), VectorLowPass(timeConstant: tau))
        explainedRate = VectorLowPass(timeConstant: tau)
    }

    /// The current gyroscope bias estimate in rad/s.
    public var bias: Vector3 { biasEstimator.bias }
    /// Whether the device is currently detected at rest.
    public var isRest: Bool { restDetector.isRest }
    /// Whether the magnetometer is currently considered disturbed.
    public var isMagneticallyDisturbed: Bool { disturbance.isDisturbed }

    /// Sets the attitude from one accelerometer sample (CoreMotion sign: still face-up reads
    /// (0, 0, −1)) so the inclination starts right; the yaw is chosen so the device's X axis
    /// projects onto the reference X axis (the magnetometer then sets the heading, in
    /// North-West-Up).
    public mutating func initialise(accelerometer: Vector3) {
        let up = (-accelerometer).normalized
        guard up != .zero else { return }
        var xAxis = Vector3(x: 1, y: 0, z: 0)
        var horizontal = xAxis - up * up.dot(xAxis)
        if horizontal.magnitudeSquared < 0.01 {
            xAxis = Vector3(x: 0, y: 1, z: 0)
            horizontal = xAxis - up * up.dot(xAxis)
        }
        let north = horizontal.normalized
        strapdown = Quaternion(rows: north, up.cross(north), up)
        inclination = .identity
        heading = 0
        headingRotation = .identity
        headingStartGain = 1
        isHeadingInitialised = false
        attitude = strapdown
        isInitialised = true
    }

    /// Forgets the learned magnetic reference and converges the heading quickly again, as at
    /// start: for when the magnetometer's calibration has changed what it measures.
    public mutating func restartHeading() {
        disturbance = MagneticDisturbanceDetector(settings: settings.magneticDisturbance)
        headingStartGain = 1
    }

    /// Advances the attitude by `deltaTime` seconds with a raw gyroscope sample (rad/s, bias
    /// included: the filter estimates it), an accelerometer sample at the same time (g,
    /// CoreMotion sign) and, for North-West-Up, a calibrated magnetometer sample (any unit).
    public mutating func update(
        gyro: Vector3,
        accelerometer: Vector3,
        magnetometer: Vector3?,
        deltaTime: Double
    ) {
        guard deltaTime > 0 else { return }
        updateCoefficients(deltaTime: deltaTime)
        let period = samplePeriod

        restDetector.update(
            gyro: gyro, accelerometer: accelerometer, deltaTime: deltaTime, coefficients: restCoefficients)

        // Strapdown integration of the bias-corrected rate (exact for a constant rate).
        strapdown = (strapdown * Quaternion(rotationVector: (gyro - biasEstimator.bias) * deltaTime)).normalized

        // Inclination: low-pass "up" in the strapdown (inertial) frame, then make it vertical.
        let up = -accelerometer
        if up != .zero {
            let inertialUp = acceleration.update(
                strapdown.rotate(up), deltaTime: deltaTime, coefficients: accelerationCoefficients)
            let v = inclination.rotate(inertialUp).normalized
            let w = ((v.z + 1) / 2).squareRoot()
            let correction = w > 1e-6
                ? Quaternion(x: v.y / (2 * w), y: -v.x / (2 * w), z: 0, w: w)
                : Quaternion(x: 1, y: 0, z: 0, w: 0)
            inclination = (correction * inclination).normalized
            updateBias(correctionAngles: Vector3(x: v.y, y: -v.x, z: 0), period: period)
        }

        if let magnetometer {
            updateHeading(magnetometer, deltaTime: deltaTime)
        }
        let levelled = inclination * strapdown
        attitude = isHeadingInitialised ? (headingRotation * levelled).normalized : levelled
    }

    /// Bias update: at rest from the low-passed gyro; in motion from the inclination correction
    /// (`correctionAngles`, the small rotation applied this sample, in the levelled frame).
    private mutating func updateBias(correctionAngles: Vector3, period: Double) {
        let rotation = (inclination * strapdown).rotationMatrix
        let bias = biasEstimator.bias
        let r0 = observation.0.update(rotation.row0, deltaTime: period, coefficients: accelerationCoefficients)
        let r1 = observation.1.update(rotation.row1, deltaTime: period, coefficients: accelerationCoefficients)
        let r2 = observation.2.update(rotation.row2, deltaTime: period, coefficients: accelerationCoefficients)
        let explained = explainedRate.update(
            rotation * bias, deltaTime: period, coefficients: accelerationCoefficients)
        biasEstimator.predict(samplePeriod: period)
        if restDetector.isRest {
            biasEstimator.updateAtRest(lowPassedGyro: restDetector.lowPassedGyro, samplePeriod: period)
        } else {
            // An uncorrected bias b turns the strapdown frame at R b; the correction undoes that:
            // correction rate ≈ −R b, so the bias seen by the correction is −rate + LP(R b̂).
            let lowPassed = Matrix3(rows: r0, r1, r2)
            let predicted = lowPassed * bias
            let innovation = Vector3(
                x: -correctionAngles.x / period + explained.x - predicted.x,
                y: -correctionAngles.y / period + explained.y - predicted.y,
                z: -predicted.z)
            biasEstimator.updateInMotion(innovation: innovation, observation: lowPassed, samplePeriod: period)
        }
    }

    /// Heading update from a magnetometer sample: δ follows minus the field's azimuth in the
    /// levelled frame (so the field points to +X, north), faster during the first samples.
    private mutating func updateHeading(_ magnetometer: Vector3, deltaTime: Double) {
        let field = (inclination * strapdown).rotate(magnetometer)
        guard field.x != 0 || field.y != 0 else { return }
        var gain = magneticGain
        if settings.rejectsMagneticDisturbance {
            gain *= disturbance.update(
                field: field, rotationSpeed: (restDetector.lowPassedGyro).magnitude,
                deltaTime: deltaTime, coefficients: magneticCoefficients)
        }
        // Start-up: the gain is at least 1/N for the N-th sample (the running mean), until the
        // filter's own time constant takes over.
        if headingStartGain > 0 {
            gain = max(gain, headingStartGain)
            headingStartGain = headingStartGain / (headingStartGain + 1)
            if headingStartGain * settings.magneticTimeConstant < deltaTime { headingStartGain = 0 }
        }
        let disagreement = Self.wrapped(-Double.atan2(y: field.y, x: field.x) - heading)
        let step = gain * disagreement
        heading = Self.wrapped(heading + step)
        headingRotation = (Quaternion(rotationVector: Vector3(x: 0, y: 0, z: step)) * headingRotation).normalized
        isHeadingInitialised = true
    }

    private mutating func updateCoefficients(deltaTime: Double) {
        // The smoothed sample period (about 1 s of memory, bounded against gaps).
        let step = min(deltaTime, 0.1)
        samplePeriod = samplePeriod == 0 ? step : samplePeriod + (step - samplePeriod) * min(1, step)
        guard abs(samplePeriod - coefficientPeriod) > 0.02 * coefficientPeriod || coefficientPeriod == 0
        else { return }
        coefficientPeriod = samplePeriod
        accelerationCoefficients = LowPassCoefficients(
            timeConstant: settings.accelerationTimeConstant, samplePeriod: samplePeriod)
        magneticGain = -Double.expMinusOne(-samplePeriod / settings.magneticTimeConstant)
        restCoefficients = LowPassCoefficients(timeConstant: settings.restTimeConstant, samplePeriod: samplePeriod)
        magneticCoefficients = LowPassCoefficients(
            timeConstant: settings.magneticDisturbance.currentTimeConstant, samplePeriod: samplePeriod)
        acceleration.settle(coefficients: accelerationCoefficients)
        observation.0.settle(coefficients: accelerationCoefficients)
        observation.1.settle(coefficients: accelerationCoefficients)
        observation.2.settle(coefficients: accelerationCoefficients)
        explainedRate.settle(coefficients: accelerationCoefficients)
    }

    private static func wrapped(_ angle: Double) -> Double {
        angle > .pi ? angle - 2 * .pi : angle < -.pi ? angle + 2 * .pi : angle
    }
}
