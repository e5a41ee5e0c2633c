public import MotionFusion
public import TaskModel

/// The sensor-fusion stage factory backed by MotionFusion's `DeviceMotionEstimator`: attitude,
/// gravity, userAcceleration and rotationRate from accelerometer + gyroscope, and magneticField
/// (with a North-West-Up attitude and heading) when the magnetometer is recorded.
public struct DeviceMotionFusion: MotionFusionFactory {
    /// Estimator settings; the reference frame is chosen per recording from the types.
    public var settings: DeviceMotionEstimator.Settings
    /// The attitude's reference frame, or nil to choose it from the types as SageResearch does
    /// (North-West-Up when magneticField is recorded, else Z-Up).
    public var referenceFrame: ReferenceFrame?

    public init(settings: DeviceMotionEstimator.Settings = .init(), referenceFrame: ReferenceFrame? = nil) {
        self.settings = settings
        self.referenceFrame = referenceFrame
    }

    public var producibleTypes: Set<MotionRecorderType> {
        [.gravity, .userAcceleration, .attitude, .rotationRate, .magneticField]
    }

    public func requiredSensors(for types: Set<MotionRecorderType>) -> Set<SensorKind> {
        types.contains(.magneticField) || referenceFrame == .northWestUp
            ? [.accelerometer, .gyroscope, .magnetometer] : [.accelerometer, .gyroscope]
    }

    public func makeStage(types: Set<MotionRecorderType>, frequency: Double) -> any MotionFusionStage {
        var settings = settings
        // SageResearch: "North-West-Up" when magneticField is recorded, else "Z-Up".
        settings.referenceFrame = referenceFrame ?? (types.contains(.magneticField) ? .northWestUp : .zUp)
        return DeviceMotionFusionStage(types: types, settings: settings)
    }
}

/// One recording's fusion stage: feeds converted samples to the estimator and turns each fused
/// `DeviceMotion` into one record per requested type, as SageResearch writes them.
final class DeviceMotionFusionStage: MotionFusionStage {
    /// Not checked for exclusive access at run time: the pipeline calls the stage from one
    /// thread at a time, and the estimator is mutated once per sample.
    @exclusivity(unchecked) private var estimator: DeviceMotionEstimator
    /// The requested types as flags, looked up once here rather than hashed in a set for
    /// every fused sample.
    private let writesAttitude: Bool
    private let writesGravity: Bool
    private let writesUserAcceleration: Bool
    private let writesRotationRate: Bool
    private let writesMagneticField: Bool

    init(types: Set<MotionRecorderType>, settings: DeviceMotionEstimator.Settings) {
        estimator = DeviceMotionEstimator(settings: settings)
        writesAttitude = types.contains(.attitude)
        writesGravity = types.contains(.gravity)
        writesUserAcceleration = types.contains(.userAcceleration)
        writesRotationRate = types.contains(.rotationRate)
        writesMagneticField = types.contains(.magneticField)
    }

    func consume(_ sample: MotionSample, emit: (MotionRecord) -> Void) {
        switch sample.sensor {
        case .accelerometer: estimator.accelerometer(x: sample.x, y: sample.y, z: sample.z, uptime: sample.uptime)
        case .gyroscope: estimator.gyro(x: sample.x, y: sample.y, z: sample.z, uptime: sample.uptime)
        case .magnetometer: estimator.magnetometer(x: sample.x, y: sample.y, z: sample.z, uptime: sample.uptime)
        }
        while let motion = estimator.nextMotion() {
            emitRecords(of: motion, emit: emit)
        }
    }

    func finish(emit: (MotionRecord) -> Void) {
        estimator.finish()
        while let motion = estimator.nextMotion() {
            emitRecords(of: motion, emit: emit)
        }
    }

    private func emitRecords(of motion: DeviceMotion, emit: (MotionRecord) -> Void) {
        let accuracy = motion.magneticField?.accuracy.rawValue ?? MagneticFieldCalibrationAccuracy.uncalibrated.rawValue
        if writesAttitude {
            let q = motion.attitude
            emit(MotionRecord(
                sensorType: .attitude, uptime: motion.uptime, x: q.x, y: q.y, z: q.z, w: q.w,
                eventAccuracy: accuracy,
                referenceCoordinate: motion.referenceFrame == .northWestUp ? .northWestUp : .zUp,
                heading: motion.heading))
        }
        if writesGravity {
            emit(Self.record(.gravity, motion.uptime, motion.gravity))
        }
        if writesUserAcceleration {
            emit(Self.record(.userAcceleration, motion.uptime, motion.userAcceleration))
        }
        if writesRotationRate {
            emit(Self.record(.rotationRate, motion.uptime, motion.rotationRate))
        }
        if writesMagneticField, let field = motion.magneticField {
            emit(MotionRecord(
                sensorType: .magneticField, uptime: motion.uptime, x: field.field.x, y: field.field.y,
                z: field.field.z, eventAccuracy: field.accuracy.rawValue, heading: motion.heading))
        }
    }

    private static func record(_ type: MotionRecorderType, _ uptime: Double, _ v: Vector3) -> MotionRecord {
        MotionRecord(sensorType: type, uptime: uptime, x: v.x, y: v.y, z: v.z)
    }
}
