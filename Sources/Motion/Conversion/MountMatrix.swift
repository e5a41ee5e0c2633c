/// An IIO mount matrix (`in_accel_mount_matrix`): how the sensor chip is turned relative to the
/// device. Applied as `v' = M · v` with the rows as the kernel prints them
/// (`x1, y1, z1; x2, y2, z2; x3, y3, z3`), as iio-sensor-proxy does.
public struct MountMatrix: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Row-major: `rows[i][j]`.
    public var rows: [[Double]]

    /// A matrix from three rows of three numbers.
    public init(rows: [[Double]]) { self.rows = rows }

    /// The identity: the chip's axes are the device's.
    public static let identity = MountMatrix(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// Parses the kernel's text; nil when it is not three rows of three finite numbers.
    public init?(parsing text: String) {
        let rows = text.split(separator: ";").map { row in
            row.split(separator: ",").compactMap { Double($0.filter { !$0.isWhitespace }) }
        }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else { return nil }
        self.rows = rows
    }

    /// M · v.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double, _ z: Double) -> (x: Double, y: Double, z: Double) {
        (
            rows[0][0] * x + rows[0][1] * y + rows[0][2] * z,
            rows[1][0] * x + rows[1][1] * y + rows[1][2] * z,
            rows[2][0] * x + rows[2][1] * y + rows[2][2] * z
        )
    }

    public var description: String {
        rows.map { $0.map { "\($0)" }.joined(separator: ", ") }.joined(separator: "; ")
    }
}
