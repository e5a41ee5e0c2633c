import RealModule

/// Streaming device-motion fusion: feed accelerometer (g, CoreMotion sign), gyroscope (rad/s)
/// and magnetometer (µT) samples in any interleaving and at any rates, then drain
/// `nextMotion()`; one `DeviceMotion` comes out per gyroscope sample, in time order.
///
/// Samples are aligned on their `uptime`, not on arrival: a gyroscope sample is processed once
/// no earlier gyroscope sample can still arrive (`reorderWindow`) and the accelerometer has
/// reached its time (or `maximumWait` has passed), with the accelerometer linearly interpolated
/// at that time and the magnetometer interpolated or held. Every call is O(1) (bounded by the
/// queue capacity for out-of-order samples) and allocation-free after `init`.
///
///     var estimator = DeviceMotionEstimator(settings: .init(referenceFrame: .zUp))
///     estimator.gyro(x: 0, y: 0, z: 0.1, uptime: 12.0025)
///     estimator.accelerometer(x: 0, y: 0, z: -1, uptime: 12.01)
///     while let motion = estimator.nextMotion() { write(motion) }
///     estimator.finish()   // end of input: drain the rest
public struct DeviceMotionEstimator: Sendable {
    /// Configuration of the estimator.
    public struct Settings: Hashable, Sendable {
        /// Reference frame of the attitude; North-West-Up fuses the magnetometer.
        public var referenceFrame: ReferenceFrame
        /// The attitude filter, with its gyro-bias estimator and magnetic-disturbance detector.
        public var filter: OrientationFilter.Settings
        /// The hard-iron calibration of the magnetometer.
        public var hardIron: HardIronCalibrator.Settings
        /// Seconds a sample may arrive after a later sample of the same sensor.
        public var reorderWindow: Double
        /// Seconds to wait for the accelerometer before holding its last value.
        public var maximumWait: Double
        /// Longest integration step in seconds (longer gaps in the gyroscope are clamped).
        public var maximumStep: Double
        /// Seconds a magnetometer reading stays usable when no newer one has come.
        public var magnetometerHold: Double
        /// Readings buffered per sensor; half of it full of gyroscope samples forces processing.
        public var queueCapacity: Int
        /// Seconds by which this device's gyroscope lags its accelerometer beyond the usual
        /// convention (a sample holds the mean rate since the previous one): the gyro rate is
        /// extrapolated this far ahead before it is integrated. A property of one IMU (the
        /// difference of its filters' group delays), so 0 by default; BROAD's IMU measures about
        /// half a sample (docs/fusion.md, "Gyro delay"). `rotationRate` stays the measured rate.
        public var gyroDelay: Double
        /// Whether the heading forgets its magnetic reference and converges quickly again when a
        /// new hard-iron offset comes into use. Off, the changed field is handled like any other
        /// new field (`MagneticDisturbanceDetector`): rejected until it has been consistent while
        /// turning, so an offset fitted during a disturbance cannot reset the reference to it.
        public var restartsHeadingOnCalibration: Bool

        public init(
            referenceFrame: ReferenceFrame = .zUp,
            filter: OrientationFilter.Settings = .init(),
            hardIron: HardIronCalibrator.Settings = .init(),
            reorderWindow: Double = 0.05,
            maximumWait: Double = 0.5,
            maximumStep: Double = 0.1,
            magnetometerHold: Double = 1,
            queueCapacity: Int = 512,
            gyroDelay: Double = 0,
            restartsHeadingOnCalibration: Bool = true
        ) {
            self.referenceFrame = referenceFrame
            self.filter = filter
            self.hardIron = hardIron
            self.reorderWindow = reorderWindow
            self.maximumWait = maximumWait
            self.maximumStep = maximumStep
            self.magnetometerHold = magnetometerHold
            self.queueCapacity = queueCapacity
            self.gyroDelay = gyroDelay
            self.restartsHeadingOnCalibration = restartsHeadingOnCalibration
        }

        /// The gyro delays the product accepts from its configuration and command line, in
        /// seconds: a lag is a fraction of a sample, so 50 ms (5 samples at 100 Hz) is far beyond
        /// any real IMU and a larger value is a unit mistake (milliseconds given as seconds).
        public static let gyroDelayRange: ClosedRange<Double> = 0...0.05
    }

    public let settings: Settings
    /// Samples dropped: arrived after their time was processed, came before any accelerometer
    /// sample, or overflowed a queue.
    public private(set) var droppedSampleCount = 0

    private var filter: OrientationFilter
    private var hardIron: HardIronCalibrator
    private var hardIronRevision = 0
    private var gyroDelay: GyroDelayCompensator
    private var accelerometerQueue: SampleQueue
    private var gyroQueue: SampleQueue
    private var magnetometerQueue: SampleQueue
    private var latestUptime = -Double.infinity
    private var latestGyroUptime = -Double.infinity
    private var latestAccelerometerUptime = -Double.infinity
    private var lastProcessedUptime: Double?
    private var isFinished = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
        filter = OrientationFilter(settings: settings.filter)
        hardIron = HardIronCalibrator(settings: settings.hardIron)
        gyroDelay = GyroDelayCompensator(delay: settings.gyroDelay, maximumStep: settings.maximumStep)
        accelerometerQueue = SampleQueue(minimumCapacity: settings.queueCapacity)
        gyroQueue = SampleQueue(minimumCapacity: settings.queueCapacity)
        magnetometerQueue = SampleQueue(minimumCapacity: settings.queueCapacity)
    }

    /// The current gyroscope bias estimate in rad/s.
    public var gyroBias: Vector3 { filter.bias }
    /// The current hard-iron offset estimate in µT and its accuracy.
    public var hardIronOffset: CalibratedMagneticField {
        CalibratedMagneticField(field: hardIron.offset, accuracy: hardIron.accuracy)
    }

    /// Adds an accelerometer sample in g, CoreMotion sign (still face-up: (0, 0, −1)).
    public mutating func accelerometer(x: Double, y: Double, z: Double, uptime: Double) {
        if let last = lastProcessedUptime, uptime < last {
            droppedSampleCount += 1
            return
        }
        note(uptime)
        latestAccelerometerUptime = max(latestAccelerometerUptime, uptime)
        let reading = TimedVector(uptime: uptime, value: Vector3(x: x, y: y, z: z))
        if accelerometerQueue.insertDroppingOldest(reading) { droppedSampleCount += 1 }
    }

    /// Adds a gyroscope sample in rad/s (right-hand rule about the device axes).
    public mutating func gyro(x: Double, y: Double, z: Double, uptime: Double) {
        if let last = lastProcessedUptime, uptime <= last {
            droppedSampleCount += 1
            return
        }
        note(uptime)
        latestGyroUptime = max(latestGyroUptime, uptime)
        let reading = TimedVector(uptime: uptime, value: Vector3(x: x, y: y, z: z))
        if gyroQueue.insertDroppingOldest(reading) { droppedSampleCount += 1 }
    }

    /// Adds a magnetometer sample in µT (uncalibrated; the hard-iron offset is estimated here).
    public mutating func magnetometer(x: Double, y: Double, z: Double, uptime: Double) {
        let value = Vector3(x: x, y: y, z: z)
        hardIron.add(value, uptime: uptime)
        if let last = lastProcessedUptime, uptime < last - settings.magnetometerHold {
            droppedSampleCount += 1
            return
        }
        note(uptime)
        let reading = TimedVector(uptime: uptime, value: value)
        if magnetometerQueue.insertDroppingOldest(reading) { droppedSampleCount += 1 }
    }

    /// Declares the end of input: every buffered gyroscope sample becomes ready.
    public mutating func finish() {
        isFinished = true
    }

    /// The next fused record whose inputs are complete, or nil until more samples arrive.
    public mutating func nextMotion() -> DeviceMotion? {
        while let gyro = gyroQueue.first {
            guard isReady(gyro.uptime) else { return nil }
            gyroQueue.removeFirst()
            guard let accelerometer = accelerometer(at: gyro.uptime) else {
                droppedSampleCount += 1
                continue
            }
            return process(gyro: gyro, accelerometer: accelerometer)
        }
        return nil
    }

    private mutating func note(_ uptime: Double) {
        latestUptime = max(latestUptime, uptime)
    }


    private func isReady(_ uptime: Double) -> Bool {
        if isFinished || gyroQueue.count * 2 >= gyroQueue.capacity { return true }
        guard latestGyroUptime - uptime >= settings.reorderWindow else { return false }
        return latestAccelerometerUptime >= uptime + settings.reorderWindow
            || latestUptime - uptime >= settings.maximumWait
    }

    /// The accelerometer interpolated at `uptime`, held before the first and after the last sample.
    private mutating func accelerometer(at uptime: Double) -> Vector3? {
        while accelerometerQueue.count >= 2, accelerometerQueue[1].uptime <= uptime {
            accelerometerQueue.removeFirst()
        }
        guard let before = accelerometerQueue.first else { return nil }
        guard before.uptime < uptime, accelerometerQueue.count >= 2 else { return before.value }
        let after = accelerometerQueue[1]
        let span = after.uptime - before.uptime
        return before.value.interpolated(to: after.value, fraction: (uptime - before.uptime) / span)
    }

    /// The raw magnetometer interpolated at `uptime`, or held for `magnetometerHold` seconds.
    private mutating func magnetometer(at uptime: Double) -> Vector3? {
        while magnetometerQueue.count >= 2, magnetometerQueue[1].uptime <= uptime {
            magnetometerQueue.removeFirst()
        }
        guard let before = magnetometerQueue.first, before.uptime <= uptime,
            uptime - before.uptime <= settings.magnetometerHold
        else { return nil }
        guard magnetometerQueue.count >= 2 else { return before.value }
        let after = magnetometerQueue[1]
        let span = after.uptime - before.uptime
        guard span > 0, span <= settings.magnetometerHold else { return before.value }
        return before.value.interpolated(to: after.value, fraction: (uptime - before.uptime) / span)
    }

    private mutating func process(gyro: TimedVector, accelerometer: Vector3) -> DeviceMotion {
        let deltaTime = lastProcessedUptime.map {
            min(max(gyro.uptime - $0, 0), settings.maximumStep)
        } ?? 0
        lastProcessedUptime = gyro.uptime

        let magneticField = magnetometer(at: gyro.uptime).map { hardIron.calibrated($0) }
        let fusesMagnetometer = settings.referenceFrame == .northWestUp
        let headingField = fusesMagnetometer ? magneticField?.field : nil

        if !filter.isInitialised {
            filter.initialise(accelerometer: accelerometer)
        }
        if fusesMagnetometer, hardIron.revision != hardIronRevision {
            hardIronRevision = hardIron.revision
            if settings.restartsHeadingOnCalibration { filter.restartHeading() }
        }
        filter.update(
            gyro: gyroDelay.rate(for: gyro), accelerometer: accelerometer, magnetometer: headingField,
            deltaTime: deltaTime)
        let rotationRate = gyro.value - filter.bias

        let attitude = filter.attitude
        let gravity = attitude.inverseRotate(Vector3(x: 0, y: 0, z: -1))
        return DeviceMotion(
            uptime: gyro.uptime,
            attitude: attitude,
            gravity: gravity,
            userAcceleration: accelerometer - gravity,
            rotationRate: rotationRate,
            magneticField: magneticField,
            heading: fusesMagnetometer && filter.isHeadingInitialised
                ? Self.heading(of: attitude) : nil,
            referenceFrame: settings.referenceFrame
        )
    }

    /// Compass heading (degrees clockwise from north in North-West-Up) of the device's top edge,
    /// or of its back when the top points nearly straight up or down.
    static func heading(of attitude: Quaternion) -> Double {
        var forward = attitude.rotate(Vector3(x: 0, y: 1, z: 0))
        if forward.x * forward.x + forward.y * forward.y < 0.01 {
            forward = attitude.rotate(Vector3(x: 0, y: 0, z: -1))
        }
        let degrees = Double.atan2(y: -forward.y, x: forward.x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}
