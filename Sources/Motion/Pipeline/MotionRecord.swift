public import TaskModel

/// One record of a motion file, as SageResearch's `MotionRecord` writes it: raw sensor samples
/// and the fused device-motion types.
public struct MotionRecord: Sendable, Hashable {
    /// SageResearch's attitude reference frames.
    public enum ReferenceCoordinate: String, Sendable, Hashable {
        /// Z vertical, X arbitrary in the horizontal plane.
        case zUp = "Z-Up"
        /// Z vertical, X toward magnetic north (needs the magnetometer).
        case northWestUp = "North-West-Up"
    }

    /// The recorder type written as `sensorType`.
    public var sensorType: MotionRecorderType
    /// CLOCK_BOOTTIME seconds of the sample.
    public var uptime: Double
    /// The vector (or the quaternion's vector part), in CoreMotion's units.
    public var x: Double
    public var y: Double
    public var z: Double
    /// The quaternion's scalar part (attitude only).
    public var w: Double?
    /// Magnetic field calibration accuracy (attitude and magneticField).
    public var eventAccuracy: Int?
    /// The attitude's reference frame (attitude only).
    public var referenceCoordinate: ReferenceCoordinate?
    /// Heading in degrees [0, 360) from magnetic north, when known.
    public var heading: Double?

    public init(
        sensorType: MotionRecorderType, uptime: Double, x: Double, y: Double, z: Double, w: Double? = nil,
        eventAccuracy: Int? = nil, referenceCoordinate: ReferenceCoordinate? = nil, heading: Double? = nil
    ) {
        self.sensorType = sensorType
        self.uptime = uptime
        self.x = x
        self.y = y
        self.z = z
        self.w = w
        self.eventAccuracy = eventAccuracy
        self.referenceCoordinate = referenceCoordinate
        self.heading = heading
    }

    /// The record of a raw sample.
    public init(_ sample: MotionSample) {
        self.init(sensorType: sample.sensor.recorderType, uptime: sample.uptime, x: sample.x, y: sample.y, z: sample.z)
    }
}
