@testable import MotionFusion
import Testing

@Suite("Quaternion and calibration math")
struct MathTests {
    static let rotations: [(angle: Double, axis: Vector3)] = [
        (0, Vector3(x: 0, y: 0, z: 1)),
        (0.3, Vector3(x: 1, y: 0, z: 0)),
        (2.9, Vector3(x: 0, y: 1, z: 0)),
        (3.1, Vector3(x: 1, y: -2, z: 0.5)),
        (-1.2, Vector3(x: 0.2, y: 0.3, z: -1)),
        (Double.pi, Vector3(x: 0, y: 0, z: 1)),
    ]

    @Test("A rotation matrix built from rotated axes converts back to the same rotation",
        arguments: 0..<rotations.count)
    func matrixRoundTrip(_ index: Int) {
        let q = Quaternion(angle: Self.rotations[index].angle, axis: Self.rotations[index].axis)
        // Rows of the device → reference matrix are the reference axes in device coordinates.
        let rows = (
            q.inverseRotate(Vector3(x: 1, y: 0, z: 0)), q.inverseRotate(Vector3(x: 0, y: 1, z: 0)),
            q.inverseRotate(Vector3(x: 0, y: 0, z: 1))
        )
        let back = Quaternion(rows: rows.0, rows.1, rows.2)
        #expect(back.angle(to: q) < 1e-9)
    }

    @Test("Counter-clockwise yaw about Z moves the device X axis towards reference Y")
    func rotationSense() {
        let q = Quaternion(angle: .pi / 2, axis: Vector3(x: 0, y: 0, z: 1))
        let x = q.rotate(Vector3(x: 1, y: 0, z: 0))
        #expect((x - Vector3(x: 0, y: 1, z: 0)).magnitude < 1e-12)
        #expect(abs(q.z - 0.5.squareRoot()) < 1e-12 && abs(q.w - 0.5.squareRoot()) < 1e-12)
    }

    @Test("Heading of the top edge, or of the back when the top points up", arguments: [
        (Quaternion(angle: -.pi / 2, axis: Vector3(x: 0, y: 0, z: 1)), 0.0),
        (Quaternion.identity, 270.0),
        // Portrait, top up, screen (+Z) facing north: the back faces south.
        (Quaternion(angle: .pi / 2, axis: Vector3(x: 0, y: 0, z: 1))
            * Quaternion(angle: .pi / 2, axis: Vector3(x: 1, y: 0, z: 0)), 180.0),
    ])
    func heading(_ attitude: Quaternion, _ expected: Double) {
        let heading = DeviceMotionEstimator.heading(of: attitude)
        let difference = abs((heading - expected + 540).truncatingRemainder(dividingBy: 360) - 180)
        #expect(difference < 1e-6, "\(heading)")
    }

    @Test("Smallest eigenvalue of symmetric 3×3 matrices", arguments: [
        ([2.0, 0, 0, 3, 0, 5], 2.0),
        ([1.0, 0, 0, 1, 0, 1], 1.0),
        ([2.0, 1, 0, 2, 0, 7], 1.0),
        ([4.0, 1, 1, 4, 1, 4], 3.0),
        ([1.0, 1, 1, 1, 1, 1], 0.0),
    ])
    func smallestEigenvalue(_ m: [Double], _ expected: Double) {
        let value = HardIronCalibrator.smallestEigenvalue(
            xx: m[0], xy: m[1], xz: m[2], yy: m[3], yz: m[4], zz: m[5])
        #expect(abs(value - expected) < 1e-9, "\(value)")
    }
}
