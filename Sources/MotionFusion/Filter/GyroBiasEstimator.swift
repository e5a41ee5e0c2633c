/// Gyroscope bias estimation at rest and in motion: a Kalman filter on the constant-bias model
/// with a slow random walk (the idea of VQF, D. Laidig and T. Seel, "VQF: Highly accurate IMU
/// orientation estimation with bias estimation and magnetic disturbance rejection", Information
/// Fusion 91, 2023).
///
/// At rest the low-passed gyroscope measures the bias directly (all three axes, small noise).
/// In motion the inclination correction that the accelerometer asks for is what an uncorrected
/// bias would have caused, seen through the attitude: it measures the two horizontal components
/// of the bias in the reference frame, with a larger noise; the vertical component only drifts.
/// Covariances are kept in (°/s)², so the 3×3 inversion stays well scaled.
public struct GyroBiasEstimator: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Standard deviation of the bias before any measurement, °/s.
        public var initialSigma: Double = 0.5
        /// Seconds for the bias uncertainty to grow back from 0 to 0.1 °/s (bias drift model).
        public var forgettingTime: Double = 100
        /// Largest bias (°/s, each axis) the estimator will report; also bounds a single correction.
        public var limit: Double = 2
        /// Steady-state standard deviation with motion updates only, °/s.
        public var motionSigma: Double = 0.1
        /// How much slower the vertical bias component forgets in motion (it is not observed).
        public var verticalForgettingFactor: Double = 0.0001
        /// Steady-state standard deviation with rest updates, °/s.
        public var restSigma: Double = 0.03
        /// Whether the bias is estimated during motion (else at rest only).
        public var estimatesInMotion = true

        public init() {}
    }

    public let settings: Settings
    /// The current bias estimate in rad/s, to subtract from the gyroscope.
    public private(set) var bias: Vector3 = .zero
    private var covariance: Matrix3
    private let initialVariance: Double

    static let degrees = 180 / Double.pi

    public init(settings: Settings = Settings()) {
        self.settings = settings
        initialVariance = settings.initialSigma * settings.initialSigma
        covariance = Matrix3(diagonal: initialVariance)
    }

    /// The bias uncertainty (standard deviation of the largest axis), rad/s.
    public var sigma: Double {
        max(covariance.row0.x, covariance.row1.y, covariance.row2.z).squareRoot() / Self.degrees
    }

    /// Process noise per step of `samplePeriod` seconds, (°/s)².
    private func processNoise(samplePeriod: Double) -> Double {
        0.01 * samplePeriod / settings.forgettingTime
    }

    /// Measurement variance per sample that makes the steady-state uncertainty `sigma` (°/s).
    private func measurementNoise(sigma: Double, samplePeriod: Double) -> Double {
        let p = sigma * sigma
        return p * p / processNoise(samplePeriod: samplePeriod) + p
    }

    /// Lets the uncertainty grow for one step (the bias may drift).
    mutating func predict(samplePeriod: Double) {
        let v = processNoise(samplePeriod: samplePeriod)
        if covariance.row0.x < initialVariance { covariance.row0.x += v }
        if covariance.row1.y < initialVariance { covariance.row1.y += v }
        if covariance.row2.z < initialVariance { covariance.row2.z += v }
    }

    /// Rest update: `lowPassedGyro` (rad/s) is the bias plus small noise.
    mutating func updateAtRest(lowPassedGyro: Vector3, samplePeriod: Double) {
        let w = measurementNoise(sigma: settings.restSigma, samplePeriod: samplePeriod)
        correct(
            innovation: (lowPassedGyro - bias) * Self.degrees, observation: .identity,
            noise: Vector3(x: w, y: w, z: w))
    }

    /// Motion update: `innovation` (rad/s, reference frame) is the rate the inclination correction
    /// implies minus what the current bias explains through `observation` (the low-passed
    /// device → reference rotation).
    mutating func updateInMotion(innovation: Vector3, observation: Matrix3, samplePeriod: Double) {
        guard settings.estimatesInMotion else { return }
        let w = measurementNoise(sigma: settings.motionSigma, samplePeriod: samplePeriod)
        correct(
            innovation: innovation * Self.degrees, observation: observation,
            noise: Vector3(x: w, y: w, z: w / max(settings.verticalForgettingFactor, 1e-10)))
    }

    /// The Kalman update with measurement matrix `h` and diagonal noise `noise`, innovation in °/s.
    private mutating func correct(innovation: Vector3, observation h: Matrix3, noise: Vector3) {
        let limit = settings.limit
        let e = Vector3(
            x: min(max(innovation.x, -limit), limit), y: min(max(innovation.y, -limit), limit),
            z: min(max(innovation.z, -limit), limit))
        let pht = covariance * h.transposed
        var s = h * pht
        s.row0.x += noise.x
        s.row1.y += noise.y
        s.row2.z += noise.z
        guard let sInverse = s.inverse else { return }
        let gain = pht * sInverse
        let step = gain * e
        // P − K H P, with H P = (P Hᵀ)ᵀ as P is symmetric.
        covariance = covariance - gain * pht.transposed
        let limitRadians = limit / Self.degrees
        bias = bias + step * (1 / Self.degrees)
        bias = Vector3(
            x: min(max(bias.x, -limitRadians), limitRadians), y: min(max(bias.y, -limitRadians), limitRadians),
            z: min(max(bias.z, -limitRadians), limitRadians))
    }
}
