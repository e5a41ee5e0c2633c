import MotionFusion
import RealModule

/// A known motion: device attitude (device → North-West-Up world) and linear acceleration
/// (world frame, in g, physical sign) as functions of seconds since the start.
struct MotionTrajectory: Sendable {
    var name: String
    var duration: Double
    /// Seconds after which errors are judged.
    var settlingTime: Double = 3
    var attitude: @Sendable (Double) -> Quaternion
    var linearAcceleration: @Sendable (Double) -> Vector3 = { _ in .zero }
    /// Intervals (seconds since start) during which the device is known to be still.
    var stillIntervals: [ClosedRange<Double>] = []

    /// Angular velocity in the device frame (rad/s): 2 · Im(q* · dq/dt), by central difference.
    func rotationRate(at t: Double) -> Vector3 {
        let h = 1e-5
        let q0 = attitude(t - h)
        let q1 = attitude(t + h)
        let q = attitude(t)
        // Keep the two neighbours in the same hemisphere as q.
        let sign0: Double = q0.w * q.w + q0.x * q.x + q0.y * q.y + q0.z * q.z < 0 ? -1 : 1
        let sign1: Double = q1.w * q.w + q1.x * q.x + q1.y * q.y + q1.z * q.z < 0 ? -1 : 1
        let derivative = Quaternion(
            x: (sign1 * q1.x - sign0 * q0.x) / (2 * h), y: (sign1 * q1.y - sign0 * q0.y) / (2 * h),
            z: (sign1 * q1.z - sign0 * q0.z) / (2 * h), w: (sign1 * q1.w - sign0 * q0.w) / (2 * h))
        let product = q.conjugate * derivative
        return Vector3(x: 2 * product.x, y: 2 * product.y, z: 2 * product.z)
    }

    /// Gravity in the device frame, in g, CoreMotion sign.
    func gravity(at t: Double) -> Vector3 {
        attitude(t).inverseRotate(Vector3(x: 0, y: 0, z: -1))
    }

    /// CoreMotion userAcceleration: the accelerometer's sign, so minus the physical acceleration.
    func userAcceleration(at t: Double) -> Vector3 {
        attitude(t).inverseRotate(-linearAcceleration(t))
    }

    func isStill(at t: Double) -> Bool { stillIntervals.contains { $0.contains(t) } }
}

extension MotionTrajectory {
    /// Lying still at a fixed attitude.
    static func still(_ name: String, _ attitude: Quaternion, duration: Double = 10) -> Self {
        MotionTrajectory(
            name: name, duration: duration, attitude: { _ in attitude },
            stillIntervals: [0...duration])
    }

    /// Still face-up for `lead` seconds, then turning at `rate` rad/s about a device axis.
    static func rotation(_ name: String, axis: Vector3, rate: Double, lead: Double = 4) -> Self {
        MotionTrajectory(
            name: name, duration: lead + 10, settlingTime: 3,
            attitude: { t in Quaternion(angle: rate * max(0, t - lead), axis: axis) },
            stillIntervals: [0...lead])
    }

    /// Still, a smooth 60° tilt over one second, then held.
    static func tiltThenHold() -> Self {
        let axis = Vector3(x: 1, y: 1, z: 0)
        let start = 4.0
        return MotionTrajectory(
            name: "tilt then hold", duration: 12,
            attitude: { t in
                let s = min(1, max(0, t - start))
                let eased = s * s * (3 - 2 * s)
                return Quaternion(angle: eased * .pi / 3, axis: axis)
            },
            stillIntervals: [0...start, (start + 1.5)...12])
    }

    /// Hand-held walking: the phone tilted 30° towards the user, swaying at the step rate (2 Hz)
    /// and stride rate (1 Hz), with vertical bounce and fore-aft surge of a few tenths of g.
    static func walk(lead: Double = 3) -> Self {
        let base = Quaternion(angle: 30 * .pi / 180, axis: Vector3(x: 1, y: 0, z: 0))
        return MotionTrajectory(
            name: "walk", duration: 20,
            attitude: { t in
                let w = max(0, t - lead)
                // Ease in over the first second so the motion starts without a jump.
                let envelope = min(1, w)
                let pitch = 4 * .pi / 180 * Double.sin(2 * .pi * 2 * w)
                let roll = 3 * .pi / 180 * Double.sin(2 * .pi * 1 * w + 0.4)
                let yaw = 6 * .pi / 180 * Double.sin(2 * .pi * 1 * w)
                return Quaternion(angle: envelope * yaw, axis: Vector3(x: 0, y: 0, z: 1)) * base
                    * Quaternion(angle: envelope * pitch, axis: Vector3(x: 1, y: 0, z: 0))
                    * Quaternion(angle: envelope * roll, axis: Vector3(x: 0, y: 1, z: 0))
            },
            linearAcceleration: { t in
                guard t > lead else { return .zero }
                let w = t - lead
                let envelope = min(1, w)
                return Vector3(
                    x: 0.15 * Double.sin(2 * .pi * 2 * w + 1),
                    y: 0.08 * Double.sin(2 * .pi * 1 * w),
                    z: 0.3 * Double.sin(2 * .pi * 2 * w)) * envelope
            },
            stillIntervals: [0...lead])
    }
}

extension MotionTrajectory {
    /// Still, then tumbling through all orientations (so a magnetometer sees its whole sphere),
    /// then held still: for hard-iron calibration and heading.
    static func tumbleThenHold(lead: Double = 3, tumble: Double = 30, hold: Double = 15) -> Self {
        let attitude: @Sendable (Double) -> Quaternion = { t in
            let s = min(max(0, t - lead), tumble)
            // Ease in and out so the tumble starts and stops smoothly.
            let phase = s - tumble / (2 * .pi) * Double.sin(2 * .pi * s / tumble)
            return Quaternion(angle: 0.7 * phase, axis: Vector3(x: 0, y: 0, z: 1))
                * Quaternion(angle: 0.45 * phase, axis: Vector3(x: 1, y: 0, z: 0))
                * Quaternion(angle: 0.3 * phase, axis: Vector3(x: 0, y: 1, z: 0))
        }
        return MotionTrajectory(
            name: "tumble then hold", duration: lead + tumble + hold, settlingTime: lead + tumble + 3,
            attitude: attitude, stillIntervals: [0...lead, (lead + tumble)...(lead + tumble + hold)])
    }
}
