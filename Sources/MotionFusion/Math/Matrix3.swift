/// A 3×3 matrix stored by rows (used for rotation matrices and the gyro-bias covariance).
public struct Matrix3: Hashable, Sendable {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// `value` on the diagonal, zero elsewhere.
    public init(diagonal value: Double) {
        self.init(
            rows: Vector3(x: value, y: 0, z: 0), Vector3(x: 0, y: value, z: 0), Vector3(x: 0, y: 0, z: value))
    }

    public static let identity = Matrix3(diagonal: 1)

    public var transposed: Matrix3 {
        Matrix3(
            rows: Vector3(x: row0.x, y: row1.x, z: row2.x),
            Vector3(x: row0.y, y: row1.y, z: row2.y),
            Vector3(x: row0.z, y: row1.z, z: row2.z))
    }

    /// The inverse by the adjugate, or nil when the determinant is negligible against the entries.
    @inline(__always)
    public var inverse: Matrix3? {
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        let determinant = row0.dot(c0)
        let scale = max(row0.magnitudeSquared, row1.magnitudeSquared, row2.magnitudeSquared)
        guard abs(determinant) > 1e-12 * scale * scale.squareRoot() else { return nil }
        // The adjugate's columns are the cross products of the rows.
        return Matrix3(rows: c0, c1, c2).transposed * (1 / determinant)
    }

    @inline(__always)
    public static func * (matrix: Matrix3, vector: Vector3) -> Vector3 {
        Vector3(x: matrix.row0.dot(vector), y: matrix.row1.dot(vector), z: matrix.row2.dot(vector))
    }

    @inline(__always)
    public static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        // Each row of the product is the row of lhs combining the rows of rhs.
        @inline(__always) func row(_ r: Vector3) -> Vector3 {
            rhs.row0 * r.x + rhs.row1 * r.y + rhs.row2 * r.z
        }
        return Matrix3(rows: row(lhs.row0), row(lhs.row1), row(lhs.row2))
    }

    public static func * (matrix: Matrix3, scale: Double) -> Matrix3 {
        Matrix3(rows: matrix.row0 * scale, matrix.row1 * scale, matrix.row2 * scale)
    }

    public static func + (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        Matrix3(rows: lhs.row0 + rhs.row0, lhs.row1 + rhs.row1, lhs.row2 + rhs.row2)
    }

    public static func - (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        Matrix3(rows: lhs.row0 - rhs.row0, lhs.row1 - rhs.row1, lhs.row2 - rhs.row2)
    }
}
