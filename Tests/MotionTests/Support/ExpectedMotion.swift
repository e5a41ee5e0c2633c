/// The test's own statement of the conversion rules (docs/motion.md), written without the
/// product's code: SI = (raw + offset) × scale, then the mount matrix (rows as printed, v' = M·v),
/// then CoreMotion units (accelerometer: −SI / 9.80665 g; gyroscope rad/s; magnetometer
/// gauss × 100 = µT).
enum ExpectedMotion {
    static func vector(
        raw: [Int64], scale: Double, offset: Double = 0, matrix: [[Double]]? = nil, sensor: String
    ) -> [Double] {
        let si = raw.map { (Double($0) + offset) * scale }
        let mounted: [Double]
        if let matrix {
            mounted = matrix.map { row in row[0] * si[0] + row[1] * si[1] + row[2] * si[2] }
        } else {
            mounted = si
        }
        switch sensor {
        case "accelerometer": return mounted.map { -$0 / 9.80665 }
        case "magnetometer": return mounted.map { $0 * 100 }
        default: return mounted
        }
    }

    /// Equal within 1e-12 relative (the file holds 15–17 significant digits).
    static func close(_ a: Double, _ b: Double, tolerance: Double = 1e-12) -> Bool {
        abs(a - b) <= tolerance * max(1, abs(a), abs(b))
    }
}
