/// The reference frame of `DeviceMotion.attitude`, named as SageResearch writes
/// `referenceCoordinate`.
public enum ReferenceFrame: String, Sendable, CaseIterable {
    /// CoreMotion's `xArbitraryZVertical`: Z up, X and Y horizontal, yaw fixed by the first
    /// samples and drifting slowly with the gyroscope (no magnetometer used for attitude).
    case zUp = "Z-Up"
    /// CoreMotion's `xMagneticNorthZVertical`: X towards magnetic north, Y west, Z up.
    case northWestUp = "North-West-Up"
}
