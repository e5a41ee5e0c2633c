import RealModule

/// The attitude filter: a revised Madgwick complementary filter as in xioTechnologies' Fusion AHRS
/// (Madgwick, "An efficient orientation filter for inertial and inertial/magnetic sensor arrays",
/// 2010; Madgwick, Wilson, Turk, Burridge, Kapatos, Vaidyanathan, "An Extended Complementary
/// Filter for Full-Body MARG Orientation Estimation", IEEE/ASME Trans. Mechatronics 25(4), 2020):
/// the gyroscope is integrated, and the cross product between the
/// measured and predicted "up" (and "west", with a magnetometer) directions is fed back as a
/// rotation-rate correction scaled by a gain. The gain ramps down from a high initial value so
/// the attitude converges within the initialisation period; measurements disagreeing with the
/// prediction by more than a rejection angle are ignored (linear acceleration, magnetic
/// disturbance) until they have disagreed long enough to trigger recovery.
public struct OrientationFilter: Sendable {
    /// Tuning of the filter; the defaults are Fusion's, except a tighter acceleration rejection
    /// (5° rather than 10°), which halves the tilt error while walking in our tests.
    public struct Settings: Hashable, Sendable {
        /// Feedback gain after initialisation (Fusion's default 0.5).
        public var gain: Double = 0.5
        /// Feedback gain at start, ramped linearly down to `gain` over `initialisationPeriod`.
        public var initialGain: Double = 10
        /// Seconds of gain ramp after start (or after the first magnetometer sample in
        /// North-West-Up); rejection is off during it.
        public var initialisationPeriod: Double = 3
        /// Degrees of disagreement beyond which the accelerometer is ignored (0 disables rejection).
        public var accelerationRejection: Double = 5
        /// Degrees of disagreement beyond which the magnetometer is ignored (0 disables rejection).
        public var magneticRejection: Double = 10
        /// Seconds of mostly (> 90 %) rejected measurements after which they are all used again
        /// until the disagreement has gone (Fusion's `rejectionTimeout`; 0 disables rejection).
        public var recoveryTriggerPeriod: Double = 5

        public init() {}
    }

    public let settings: Settings
    /// Current attitude: device frame → reference frame.
    public private(set) var attitude: Quaternion = .identity
    /// Whether the attitude has been set from a first accelerometer sample.
    public private(set) var isInitialised = false
    /// Whether the yaw has been set from a magnetometer sample (North-West-Up only).
    public private(set) var isHeadingInitialised = false
    /// Whether the last update ignored the accelerometer (rejection).
    public private(set) var isAccelerometerIgnored = false
    /// Whether the last update ignored the magnetometer (rejection).
    public private(set) var isMagnetometerIgnored = false

    private var elapsed: Double = 0
    private var accelerationRecovery = RecoveryState()
    private var magneticRecovery = RecoveryState()
    private let accelerationThreshold: Double
    private let magneticThreshold: Double

    public init(settings: Settings = Settings()) {
        self.settings = settings
        accelerationThreshold = Self.feedbackThreshold(degrees: settings.accelerationRejection)
        magneticThreshold = Self.feedbackThreshold(degrees: settings.magneticRejection)
    }

    /// Sets the attitude from one accelerometer sample (CoreMotion sign: still face-up reads
    /// (0, 0, −1)) and, for North-West-Up, a magnetometer sample; restarts the gain ramp.
    /// In Z-Up the yaw is chosen so that the device's X axis projects onto the reference X axis.
    public mutating func initialise(accelerometer: Vector3, magnetometer: Vector3?) {
        let up = (-accelerometer).normalized
        guard up != .zero else { return }
        var rows: (Vector3, Vector3, Vector3)?
        if let magnetometer {
            let west = up.cross(magnetometer).normalized
            if west != .zero {
                rows = (west.cross(up), west, up)
                isHeadingInitialised = true
            }
        }
        if rows == nil {
            var xAxis = Vector3(x: 1, y: 0, z: 0)
            var horizontal = xAxis - up * up.dot(xAxis)
            if horizontal.magnitudeSquared < 0.01 {
                xAxis = Vector3(x: 0, y: 1, z: 0)
                horizontal = xAxis - up * up.dot(xAxis)
            }
            let north = horizontal.normalized
            rows = (north, up.cross(north), up)
        }
        if let rows {
            attitude = Quaternion(rows: rows.0, rows.1, rows.2)
        }
        isInitialised = true
        elapsed = 0
        accelerationRecovery = RecoveryState()
        magneticRecovery = RecoveryState()
    }

    /// Advances the attitude by `deltaTime` seconds with a bias-corrected rotation rate (rad/s),
    /// an accelerometer sample (g, CoreMotion sign) and, for North-West-Up, a calibrated
    /// magnetometer sample (any unit).
    public mutating func update(
        rotationRate: Vector3,
        accelerometer: Vector3,
        magnetometer: Vector3?,
        deltaTime: Double
    ) {
        // Predict with the gyroscope first, then correct against the measurements taken at the
        // end of the step. Comparing them with the attitude at the start of the step (as Fusion
        // does) settles one sample ahead during a rotation: ω / rate, 0.58° at 60°/s and 104 Hz.
        let halfRate = rotationRate * (0.5 * deltaTime)
        let previous = attitude
        let turn = previous * Quaternion(x: halfRate.x, y: halfRate.y, z: halfRate.z, w: 0)
        let q = Quaternion(
            x: previous.x + turn.x, y: previous.y + turn.y, z: previous.z + turn.z, w: previous.w + turn.w
        ).normalized
        let initialising = elapsed < settings.initialisationPeriod
        let gain = initialising
            ? settings.initialGain
                - (settings.initialGain - settings.gain) * (elapsed / settings.initialisationPeriod)
            : settings.gain

        // Half the predicted up direction in device coordinates (third row of the rotation matrix).
        let halfUp = Vector3(
            x: q.x * q.z - q.w * q.y,
            y: q.y * q.z + q.w * q.x,
            z: q.w * q.w - 0.5 + q.z * q.z
        )
        var halfFeedback = Vector3.zero
        let up = (-accelerometer).normalized
        isAccelerometerIgnored = true
        if up != .zero {
            let error = Self.feedback(measured: up, halfPredicted: halfUp)
            if Self.accept(
                error: error, threshold: accelerationThreshold, initialising: initialising,
                recovery: &accelerationRecovery, period: settings.recoveryTriggerPeriod,
                deltaTime: deltaTime
            ) {
                halfFeedback += error
                isAccelerometerIgnored = false
            }
        }

        isMagnetometerIgnored = true
        if let magnetometer, up != .zero {
            let west = up.cross(magnetometer).normalized
            if west != .zero {
                // Half the predicted west direction in device coordinates (second row).
                let halfWest = Vector3(
                    x: q.x * q.y + q.w * q.z,
                    y: q.w * q.w - 0.5 + q.y * q.y,
                    z: q.y * q.z - q.w * q.x
                )
                let error = Self.feedback(measured: west, halfPredicted: halfWest)
                if Self.accept(
                    error: error, threshold: magneticThreshold, initialising: initialising,
                    recovery: &magneticRecovery, period: settings.recoveryTriggerPeriod,
                    deltaTime: deltaTime
                ) {
                    halfFeedback += error
                    isMagnetometerIgnored = false
                }
            }
        }

        // q̇ = ½ q ⊗ (0, ω + gain · feedback): the gyro part was integrated above, the feedback
        // part here, each with one Euler step and renormalised.
        let half = halfFeedback * (gain * deltaTime)
        let delta = q * Quaternion(x: half.x, y: half.y, z: half.z, w: 0)
        attitude = Quaternion(x: q.x + delta.x, y: q.y + delta.y, z: q.z + delta.z, w: q.w + delta.w)
            .normalized
        elapsed += deltaTime
    }

    /// Cross product of the measured direction with half the predicted one; beyond 90° it is
    /// rescaled to full strength so a large error does not converge slowly (as Fusion does).
    private static func feedback(measured: Vector3, halfPredicted: Vector3) -> Vector3 {
        let error = measured.cross(halfPredicted)
        return measured.dot(halfPredicted) < 0 ? error.normalized * 0.5 : error
    }

    /// Rejection with recovery: a rejected measurement adds 9 × Δt to the trigger, an accepted
    /// one removes Δt; recovery (every measurement used) starts when the trigger reaches the
    /// recovery period, i.e. when more than 90 % were rejected for a while, and ends when it
    /// falls back to zero.
    private static func accept(
        error: Vector3, threshold: Double, initialising: Bool, recovery: inout RecoveryState,
        period: Double, deltaTime: Double
    ) -> Bool {
        guard !initialising, threshold > 0, period > 0 else { return true }
        let rejected = error.magnitudeSquared > threshold
        recovery.trigger = min(max(recovery.trigger + (rejected ? 9 * deltaTime : -deltaTime), 0), period)
        if recovery.trigger >= period {
            recovery.isRecovering = true
        } else if recovery.trigger <= 0 {
            recovery.isRecovering = false
        }
        return !rejected || recovery.isRecovering
    }

    /// Recovery trigger of one measurement (accelerometer or magnetometer).
    struct RecoveryState: Sendable {
        var trigger: Double = 0
        var isRecovering = false
    }

    /// Squared magnitude of the half-feedback vector at `degrees` of disagreement (0 when off).
    private static func feedbackThreshold(degrees: Double) -> Double {
        guard degrees > 0 else { return 0 }
        let halfSine = 0.5 * Double.sin(degrees * .pi / 180)
        return halfSine * halfSine
    }
}
