/// Turns the three axes of one sensor in a scan into a sample in CoreMotion's units:
/// per axis `(raw + offset) × scale` (SI), then the mount matrix, then `CoreMotionUnits`.
public struct SensorConversion: Sendable, Hashable {
    /// The sensor, which decides the units.
    public var sensor: SensorKind
    /// x, y, z.
    public var axes: [AxisCalibration]
    /// The sensor's mount matrix (identity when the device has none).
    public var mountMatrix: MountMatrix

    /// A conversion for three axes (x, y, z).
    public init(sensor: SensorKind, axes: [AxisCalibration], mountMatrix: MountMatrix = .identity) {
        precondition(axes.count == 3, "A motion sensor has three axes.")
        self.sensor = sensor
        self.axes = axes
        self.mountMatrix = mountMatrix
    }

    /// The sensor's vector in CoreMotion's units from the scan starting at `scan`.
    @inline(__always)
    public func convert(scan: UnsafeRawPointer) -> (x: Double, y: Double, z: Double) {
        convert(si: (axes[0].value(inScan: scan), axes[1].value(inScan: scan), axes[2].value(inScan: scan)))
    }

    /// The vector in CoreMotion's units from the three axes in SI units (before the mount matrix).
    @inline(__always)
    public func convert(si: (Double, Double, Double)) -> (x: Double, y: Double, z: Double) {
        let mounted = mountMatrix.apply(si.0, si.1, si.2)
        return (
            CoreMotionUnits.convert(mounted.x, sensor: sensor),
            CoreMotionUnits.convert(mounted.y, sensor: sensor),
            CoreMotionUnits.convert(mounted.z, sensor: sensor)
        )
    }
}
