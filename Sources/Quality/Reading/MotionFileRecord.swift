/// One element of a motion file: a step marker (no `sensorType`, has `timestampDate`) or a
/// sample `{uptime, timestamp, stepPath, sensorType, x, y, z, w?}` (docs/motion.md).
public struct MotionFileRecord: Sendable, Hashable {
    public var uptime: Double = .nan
    public var timestamp: Double = .nan
    public var stepPath = ""
    /// nil for a step marker.
    public var sensorType: MotionSensorType?
    public var x: Double = .nan
    public var y: Double = .nan
    public var z: Double = .nan
    /// The quaternion's scalar part on attitude records.
    public var w: Double?
    /// Set on step markers.
    public var timestampDate: String?

    public init() {}

    /// True for a step marker.
    public var isMarker: Bool { sensorType == nil }
}
