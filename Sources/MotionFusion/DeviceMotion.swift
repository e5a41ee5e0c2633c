/// One fused device-motion record with CoreMotion's meaning, units and signs
/// (`CMDeviceMotion`), all vectors in the device frame.
public struct DeviceMotion: Hashable, Sendable {
    /// Sample time in seconds on CLOCK_BOOTTIME (the gyroscope sample this record was made at).
    public var uptime: Double
    /// Unit quaternion rotating device-frame vectors into `referenceFrame`.
    public var attitude: Quaternion
    /// Gravity in g: `attitude⁻¹` applied to (0, 0, −1), so a device lying still face-up has (0, 0, −1).
    public var gravity: Vector3
    /// Total acceleration minus gravity, in g, with the accelerometer's sign (CoreMotion's sign:
    /// the negative of the physical linear acceleration).
    public var userAcceleration: Vector3
    /// Angular velocity in rad/s with the estimated gyroscope bias removed (right-hand rule).
    public var rotationRate: Vector3
    /// Calibrated magnetic field, when a magnetometer feeds the estimator.
    public var magneticField: CalibratedMagneticField?
    /// Compass heading in degrees (0 ..< 360, clockwise from magnetic north) of the device's top
    /// edge (+Y), or of its back (−Z) when the top points nearly straight up or down; only in
    /// `northWestUp` with magnetometer data, else `nil` (CoreMotion reports a negative value).
    public var heading: Double?
    /// The frame `attitude` is relative to.
    public var referenceFrame: ReferenceFrame

    public init(
        uptime: Double,
        attitude: Quaternion,
        gravity: Vector3,
        userAcceleration: Vector3,
        rotationRate: Vector3,
        magneticField: CalibratedMagneticField?,
        heading: Double?,
        referenceFrame: ReferenceFrame
    ) {
        self.uptime = uptime
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.heading = heading
        self.referenceFrame = referenceFrame
    }
}
