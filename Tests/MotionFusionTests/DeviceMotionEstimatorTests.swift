import MotionFusion
import RealModule
import Testing

/// Synthetic motion with known truth through the streaming estimator: accelerometer at 100 Hz,
/// gyroscope at 400 Hz with a constant bias, seeded noise; errors judged after 3 s of settling.
@Suite("DeviceMotionEstimator")
struct DeviceMotionEstimatorTests {
    static let x = Vector3(x: 1, y: 0, z: 0)
    static let y = Vector3(x: 0, y: 1, z: 0)
    static let z = Vector3(x: 0, y: 0, z: 1)

    static let stillOrientations: [MotionTrajectory] = [
        .still("face up", .identity),
        .still("face down", Quaternion(angle: .pi, axis: x)),
        .still("left edge down", Quaternion(angle: .pi / 2, axis: y)),
        .still("right edge down", Quaternion(angle: -.pi / 2, axis: y)),
        .still("portrait, top up", Quaternion(angle: .pi / 2, axis: x)),
        .still("portrait, top down", Quaternion(angle: -.pi / 2, axis: x)),
    ]

    static let motions: [MotionTrajectory] = [
        .rotation("rotation about X", axis: x, rate: .pi / 4),
        .rotation("rotation about Y", axis: y, rate: .pi / 4),
        .rotation("rotation about Z", axis: z, rate: .pi / 2),
        .tiltThenHold(),
        .walk(),
    ]

    static func run(
        _ trajectory: MotionTrajectory, sensors: SyntheticSensors = SyntheticSensors(),
        frame: ReferenceFrame = .zUp, filter: OrientationFilter.Settings = .init()
    ) -> (records: [DeviceMotion], errors: FusionErrors, estimator: DeviceMotionEstimator) {
        var estimator = DeviceMotionEstimator(settings: .init(referenceFrame: frame, filter: filter))
        let records = estimator.run(sensors.events(for: trajectory))
        let errors = FusionErrors(
            records: records, trajectory: trajectory, startUptime: sensors.startUptime,
            alignYaw: frame == .zUp)
        return (records, errors, estimator)
    }

    @Test("Still in six orientations: gravity, attitude, zero userAcceleration, bias removed",
        arguments: stillOrientations)
    func still(_ trajectory: MotionTrajectory) {
        let (records, errors, estimator) = Self.run(trajectory)
        print("\(trajectory.name): \(errors)")
        #expect(records.count == Int(trajectory.duration * 400))
        #expect(errors.maximumGravityError <= 0.02, "\(errors)")
        #expect(errors.maximumAttitudeDegrees <= 2, "\(errors)")
        #expect(errors.stillUserAccelerationRMS <= 0.01, "\(errors)")
        #expect(errors.stillRotationRateMean.magnitude <= 0.002, "\(errors)")
        let sensors = SyntheticSensors()
        #expect((estimator.gyroBias - sensors.gyroBias).magnitude <= 0.002, "\(estimator.gyroBias)")
    }

    @Test("Rotation, tilt and walk: gravity, attitude and userAcceleration track the truth",
        arguments: motions)
    func motion(_ trajectory: MotionTrajectory) {
        let (_, errors, _) = Self.run(trajectory)
        print("\(trajectory.name): \(errors)")
        #expect(errors.maximumGravityError <= 0.02, "\(errors)")
        #expect(errors.maximumAttitudeDegrees <= 2, "\(errors)")
        // The gravity tolerance plus about four standard deviations of accelerometer noise.
        #expect(errors.maximumUserAccelerationError <= 0.04, "\(errors)")
    }
}

extension MotionTrajectory: CustomTestStringConvertible {
    var testDescription: String { name }
}

