import RealModule

/// A rotation quaternion `(x, y, z, w)` with `w` the scalar part, as CoreMotion's `CMQuaternion`.
///
/// As an attitude it rotates device-frame vectors into the reference frame
/// (`v_reference = q · v_device · q*`), so the identity means the device axes coincide with the
/// reference axes and a device turned counter-clockwise about Z by θ has `q = (0, 0, sin θ/2, cos θ/2)`.
public struct Quaternion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// No rotation.
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The rotation by `angle` radians about `axis` (right-hand rule); `axis` need not be unit length.
    public init(angle: Double, axis: Vector3) {
        let unit = axis.normalized
        let half = angle / 2
        let s = Double.sin(half)
        self.init(x: unit.x * s, y: unit.y * s, z: unit.z * s, w: Double.cos(half))
    }

    /// The rotation whose matrix has the given rows (each row is a reference axis in device
    /// coordinates), converted with Shepperd's method for numerical stability.
    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        let trace = r0.x + r1.y + r2.z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s, w: s / 4)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = (1 + r0.x - r1.y - r2.z).squareRoot() * 2
            self.init(x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s, w: (r2.y - r1.z) / s)
        } else if r1.y > r2.z {
            let s = (1 + r1.y - r0.x - r2.z).squareRoot() * 2
            self.init(x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s, w: (r0.z - r2.x) / s)
        } else {
            let s = (1 + r2.z - r0.x - r1.y).squareRoot() * 2
            self.init(x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4, w: (r1.x - r0.y) / s)
        }
        self = normalized
    }

    /// The inverse rotation (for a unit quaternion).
    public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

    public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }

    /// This quaternion scaled to unit norm.
    public var normalized: Quaternion {
        let n = norm
        guard n > 0 else { return .identity }
        let inverse = 1 / n
        return Quaternion(x: x * inverse, y: y * inverse, z: z * inverse, w: w * inverse)
    }

    /// Hamilton product: the rotation `rhs` followed by `lhs`.
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(
            x: lhs.w * rhs.x + lhs.x * rhs.w + lhs.y * rhs.z - lhs.z * rhs.y,
            y: lhs.w * rhs.y - lhs.x * rhs.z + lhs.y * rhs.w + lhs.z * rhs.x,
            z: lhs.w * rhs.z + lhs.x * rhs.y - lhs.y * rhs.x + lhs.z * rhs.w,
            w: lhs.w * rhs.w - lhs.x * rhs.x - lhs.y * rhs.y - lhs.z * rhs.z
        )
    }

    /// `v` rotated by this (unit) quaternion: device frame → reference frame for an attitude.
    public func rotate(_ v: Vector3) -> Vector3 {
        // v + 2w(u × v) + 2u × (u × v), with u the vector part: fewer products than q·v·q*.
        let u = Vector3(x: x, y: y, z: z)
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// `v` rotated by the inverse of this (unit) quaternion: reference frame → device frame.
    public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// The smallest angle, in radians, of the rotation taking `self` to `other` (0…π).
    public func angle(to other: Quaternion) -> Double {
        let d = abs(x * other.x + y * other.y + z * other.z + w * other.w)
        return 2 * Double.acos(min(1, d))
    }
}

extension Quaternion {
    /// The rotation by the rotation vector `rotation` (axis × angle in radians), exactly. Small
    /// angles (one gyro step) use the Taylor series of cos(θ/2) and sin(θ/2)/θ, exact to double
    /// precision below 0.05 rad and without the cost of two trigonometric calls.
    public init(rotationVector rotation: Vector3) {
        let a2 = rotation.magnitudeSquared
        let c: Double, s: Double
        if a2 < 0.0025 {
            c = 1 - a2 / 8 * (1 - a2 / 48 * (1 - a2 / 120 * (1 - a2 / 224)))
            s = 0.5 * (1 - a2 / 24 * (1 - a2 / 80 * (1 - a2 / 168)))
        } else {
            let angle = a2.squareRoot()
            c = Double.cos(angle / 2)
            s = Double.sin(angle / 2) / angle
        }
        self.init(x: rotation.x * s, y: rotation.y * s, z: rotation.z * s, w: c)
    }

    /// The rotation matrix: `matrix * v == rotate(v)`.
    public var rotationMatrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(
            rows: Vector3(x: 1 - 2 * (yy + zz), y: 2 * (xy - wz), z: 2 * (xz + wy)),
            Vector3(x: 2 * (xy + wz), y: 1 - 2 * (xx + zz), z: 2 * (yz - wx)),
            Vector3(x: 2 * (xz - wy), y: 2 * (yz + wx), z: 1 - 2 * (xx + yy)))
    }
}
