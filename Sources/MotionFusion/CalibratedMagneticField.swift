/// A magnetic field in the device frame with its calibration accuracy, as CoreMotion's
/// `CMCalibratedMagneticField`.
public struct CalibratedMagneticField: Hashable, Sendable {
    /// The field in µT with the estimated hard-iron offset removed.
    public var field: Vector3
    /// How trustworthy the hard-iron estimate behind `field` is.
    public var accuracy: MagneticFieldCalibrationAccuracy

    public init(field: Vector3, accuracy: MagneticFieldCalibrationAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }
}
