import Foundation
import MotionFusion
import RealModule
import Testing

/// Real data: 35 s of BROAD's trial 16 (fast translation, up to 3 g of linear acceleration;
/// see the attribution in the data file's header), fused in Z-Up and scored as BROAD does.
/// The Fusion-style filter with acceleration rejection and a 5 s recovery trigger had an
/// inclination RMSE of 13.0° (37° at worst) on this excerpt; the inertial-frame low-pass 0.44°.
@Suite("BROAD excerpt")
struct BROADExcerptTests {
    struct Row {
        var t: Double
        var accelerometer: Vector3
        var gyro: Vector3
        var truth: Quaternion?
        var movement: Bool
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Data/broad-16-fast-translation-excerpt.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map { line in
            let v = line.split(separator: ",").map { Double($0) ?? .nan }
            let truth = v[7].isNaN ? nil : Quaternion(x: v[8], y: v[9], z: v[10], w: v[7])
            return Row(
                t: v[0], accelerometer: Vector3(x: v[1], y: v[2], z: v[3]),
                gyro: Vector3(x: v[4], y: v[5], z: v[6]), truth: truth, movement: v[11] == 1)
        }
    }

    @Test("Fast translation: inclination RMSE over the movement ≤ 1°, worst ≤ 3°")
    func fastTranslation() throws {
        let rows = try Self.rows()
        try #require(rows.count == 3334)
        var estimator = DeviceMotionEstimator(settings: .init(referenceFrame: .zUp))
        var motions: [DeviceMotion] = []
        for row in rows {
            estimator.accelerometer(x: row.accelerometer.x, y: row.accelerometer.y, z: row.accelerometer.z, uptime: 100 + row.t)
            estimator.gyro(x: row.gyro.x, y: row.gyro.y, z: row.gyro.z, uptime: 100 + row.t)
            while let motion = estimator.nextMotion() { motions.append(motion) }
        }
        estimator.finish()
        while let motion = estimator.nextMotion() { motions.append(motion) }
        try #require(motions.count == rows.count)

        // BROAD's inclination error: the earth-frame error q_est ⊗ q_truth⁻¹ without its Z part.
        var sum = 0.0, count = 0, worst = 0.0
        for (row, motion) in zip(rows, motions) where row.movement {
            guard let truth = row.truth else { continue }
            let error = motion.attitude * truth.conjugate
            let inclination = 2 * Double.acos(min(1, (error.w * error.w + error.z * error.z).squareRoot())) * 180 / .pi
            sum += inclination * inclination
            count += 1
            worst = max(worst, inclination)
        }
        let rmse = (sum / Double(count)).squareRoot()
        print("BROAD trial 16 excerpt: inclination RMSE \(rmse)°, worst \(worst)° over \(count) samples")
        #expect(count > 2000)
        #expect(rmse <= 1, "inclination RMSE \(rmse)°")
        #expect(worst <= 3, "worst inclination error \(worst)°")
    }
}
