import Foundation
import Testing
import TestSupport

/// Device motion through the real pipeline: activetaskctl record under umockdev-run reads an
/// emulated combined IMU through libiio's `local:` backend, converts, and the MotionFusion stage
/// writes gravity, userAcceleration, attitude and rotationRate records.
@Suite("Device motion from emulated IIO devices", .serialized, .enabled(if: UmockdevTestbed.isAvailable))
struct FusionRecordTests {
    @Test("A still, tilted IMU with a gyro bias: gravity, zero userAcceleration, bias-free rotationRate, consistent attitude")
    func stillTilted() async throws {
        var testbed = UmockdevTestbed()
        let device = UmockdevRecordTests.combinedIMU(timestampClock: "boottime")
        let start: Int64 = 5_000_000_000_000
        // IIO reads +g along "up": tilted 30° about the chip's x axis, raw 4096 ≈ 1 g.
        let accelRaw: [Int64] = [0, 2048, 3547]
        // Gyro raw 12 with offset −2: a constant bias of 10 × 0.000305432 rad/s on every axis.
        let gyroRaw: [Int64] = [12, 12, 12]
        let count = 416  // 4 s at 104 Hz
        let scans = (0..<count).map { i in
            device.scan([
                "accel_x": [accelRaw[0]], "accel_y": [accelRaw[1]], "accel_z": [accelRaw[2]],
                "anglvel_x": [gyroRaw[0]], "anglvel_y": [gyroRaw[1]], "anglvel_z": [gyroRaw[2]],
                "timestamp": [start + Int64(i) * UmockdevRecordTests.period104],
            ])
        }
        testbed.add(device, scans: scans, scansPerChunk: 8)
        let file = testbed.path("motion.json")
        let output = try await testbed.run(
            "\"$CTL\" record --iio-uri local: --types gyro,gravity,userAcceleration,attitude,rotationRate --frequency 104 --duration 2 --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let records = try UmockdevTestbed.records(at: file)
        func of(_ type: String) -> [[String: Any]] { records.filter { $0["sensorType"] as? String == type } }
        func vector(_ r: [String: Any]) -> [Double] { ["x", "y", "z"].map { r[$0] as? Double ?? .nan } }
        let gravity = of("gravity"), user = of("userAcceleration"), attitude = of("attitude"), rate = of("rotationRate")
        // One fused record per gyro scan read, the stage's reorder window flushed at stop.
        let gyro = of("gyro")
        #expect(gyro.count > count - 10 && gyro.count <= count)
        #expect(gravity.count == gyro.count)
        #expect(gravity.last?["uptime"] as? Double == gyro.last?["uptime"] as? Double)
        #expect(user.count == gravity.count && attitude.count == gravity.count && rate.count == gravity.count)
        #expect(of("accelerometer").isEmpty)

        let accel = ExpectedMotion.vector(
            raw: accelRaw, scale: UmockdevRecordTests.accelScale, matrix: UmockdevRecordTests.matrixRows,
            sensor: "accelerometer")
        let norm = accel.map { $0 * $0 }.reduce(0, +).squareRoot()
        let expectedGravity = accel.map { $0 / norm }
        let settled = Double(start) / 1e9 + 3
        var judged = 0
        for index in gravity.indices where (gravity[index]["uptime"] as? Double ?? 0) >= settled {
            judged += 1
            let g = vector(gravity[index])
            #expect(zip(g, expectedGravity).map { abs($0 - $1) }.max()! <= 0.02, "gravity \(g)")
            #expect(vector(user[index]).map(abs).max()! <= 0.02)
            #expect(vector(rate[index]).map(abs).max()! <= 0.002, "rotationRate \(vector(rate[index]))")
            // gravity = attitude⁻¹ applied to (0, 0, −1): the third row of the rotation matrix, negated.
            let a = attitude[index]
            let (x, y, z, w) = (a["x"] as? Double ?? .nan, a["y"] as? Double ?? .nan, a["z"] as? Double ?? .nan, a["w"] as? Double ?? .nan)
            #expect(abs(x * x + y * y + z * z + w * w - 1) < 1e-9)
            let fromAttitude = [-2 * (x * z - w * y), -2 * (y * z + w * x), -(1 - 2 * (x * x + y * y))]
            #expect(zip(fromAttitude, g).allSatisfy { abs($0 - $1) < 1e-9 })
            #expect(a["referenceCoordinate"] as? String == "Z-Up")
            #expect(a["eventAccuracy"] as? Int == -1)
        }
        #expect(judged > 50)
    }
}
