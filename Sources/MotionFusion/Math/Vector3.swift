/// A three-component vector in a device or reference frame (units depend on use: g, rad/s, µT).
public struct Vector3: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The zero vector.
    public static let zero = Vector3(x: 0, y: 0, z: 0)

    /// Euclidean length.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    /// Squared Euclidean length (no square root).
    public var magnitudeSquared: Double { x * x + y * y + z * z }

    /// This vector scaled to unit length, or zero when its length is zero.
    public var normalized: Vector3 {
        let length = magnitude
        return length > 0 ? self * (1 / length) : .zero
    }

    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(
            x: y * other.z - z * other.y,
            y: z * other.x - x * other.z,
            z: x * other.y - y * other.x
        )
    }

    public static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    public static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    public static prefix func - (vector: Vector3) -> Vector3 {
        Vector3(x: -vector.x, y: -vector.y, z: -vector.z)
    }

    public static func * (vector: Vector3, scale: Double) -> Vector3 {
        Vector3(x: vector.x * scale, y: vector.y * scale, z: vector.z * scale)
    }

    public static func += (lhs: inout Vector3, rhs: Vector3) { lhs = lhs + rhs }

    /// Linear interpolation: `self` at `fraction` 0, `other` at 1.
    public func interpolated(to other: Vector3, fraction: Double) -> Vector3 {
        self + (other - self) * fraction
    }
}
