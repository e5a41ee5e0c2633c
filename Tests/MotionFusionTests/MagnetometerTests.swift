import MotionFusion
import RealModule
import Testing

/// North-West-Up attitude and heading from the magnetometer, and hard-iron calibration.
@Suite("Magnetometer")
struct MagnetometerTests {
    struct HeadingCase: Sendable, CustomTestStringConvertible {
        var yawDegrees: Double
        var expectedHeading: Double
        var testDescription: String { "face up, yaw \(yawDegrees)° → heading \(expectedHeading)°" }
    }

    /// Face up, the top edge is the device's +Y: at yaw 0 (X north) it points west (270°).
    @Test("North-West-Up: absolute attitude and compass heading of the top edge", arguments: [
        HeadingCase(yawDegrees: -90, expectedHeading: 0),
        HeadingCase(yawDegrees: 180, expectedHeading: 90),
        HeadingCase(yawDegrees: 90, expectedHeading: 180),
        HeadingCase(yawDegrees: 0, expectedHeading: 270),
        HeadingCase(yawDegrees: -30, expectedHeading: 300),
    ])
    func heading(_ heading: HeadingCase) throws {
        let attitude = Quaternion(angle: heading.yawDegrees * .pi / 180, axis: Vector3(x: 0, y: 0, z: 1))
        let trajectory = MotionTrajectory.still("heading", attitude)
        var sensors = SyntheticSensors()
        sensors.magnetometerRate = 50
        let (records, errors, _) = DeviceMotionEstimatorTests.run(
            trajectory, sensors: sensors, frame: .northWestUp)
        #expect(errors.maximumAttitudeDegrees <= 2, "\(errors)")
        #expect(errors.maximumGravityError <= 0.02, "\(errors)")
        let last = try #require(records.last)
        #expect(last.referenceFrame == .northWestUp)
        let reported = try #require(last.heading)
        let difference = abs((reported - heading.expectedHeading + 540).truncatingRemainder(dividingBy: 360) - 180)
        #expect(difference <= 2, "heading \(reported)")
        // Lying still never covers the sphere: the field stays uncalibrated, as CoreMotion says.
        #expect(last.magneticField?.accuracy == .uncalibrated)
    }

    @Test("Z-Up reports the magnetic field but no heading")
    func zUpHasNoHeading() throws {
        var sensors = SyntheticSensors()
        sensors.magnetometerRate = 50
        let (records, _, _) = DeviceMotionEstimatorTests.run(.still("face up", .identity), sensors: sensors)
        let last = try #require(records.last)
        #expect(last.heading == nil)
        #expect(last.referenceFrame == .zUp)
        let field = try #require(last.magneticField?.field)
        #expect((field - sensors.earthField).magnitude < 2)
    }

    @Test("Tumbling calibrates the hard-iron offset; heading and attitude are right afterwards")
    func hardIron() throws {
        var sensors = SyntheticSensors()
        sensors.magnetometerRate = 50
        sensors.hardIron = Vector3(x: 15, y: -25, z: 10)
        let trajectory = MotionTrajectory.tumbleThenHold()
        let (records, errors, estimator) = DeviceMotionEstimatorTests.run(
            trajectory, sensors: sensors, frame: .northWestUp)
        print("hard iron: offset \(estimator.hardIronOffset), \(errors)")
        #expect(estimator.hardIronOffset.accuracy == .high)
        #expect((estimator.hardIronOffset.field - sensors.hardIron).magnitude <= 1)
        let last = try #require(records.last)
        let field = try #require(last.magneticField)
        let truth = trajectory.attitude(trajectory.duration).inverseRotate(sensors.earthField)
        #expect((field.field - truth).magnitude <= 2)
        #expect(errors.maximumAttitudeDegrees <= 2, "\(errors)")
        #expect(errors.maximumGravityError <= 0.02, "\(errors)")
    }

    @Test("Rotation about one axis sees only a circle: calibration stays uncalibrated")
    func circleIsNotEnough() {
        var sensors = SyntheticSensors()
        sensors.magnetometerRate = 50
        sensors.hardIron = Vector3(x: 15, y: -25, z: 10)
        let (_, _, estimator) = DeviceMotionEstimatorTests.run(
            .rotation("about Z", axis: Vector3(x: 0, y: 0, z: 1), rate: 1), sensors: sensors)
        #expect(estimator.hardIronOffset.accuracy == .uncalibrated)
    }
}
