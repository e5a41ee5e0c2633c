import MotionFusion
import RealModule

/// Worst-case errors of fused records against the trajectory's truth after settling.
struct FusionErrors: CustomStringConvertible {
    var maximumGravityError = 0.0
    var maximumAttitudeDegrees = 0.0
    var maximumUserAccelerationError = 0.0
    var stillUserAccelerationRMS = 0.0
    var stillRotationRateMean = Vector3.zero
    var judgedRecords = 0

    var description: String {
        "gravity \(maximumGravityError) g, attitude \(maximumAttitudeDegrees)°, "
            + "userAcceleration \(maximumUserAccelerationError) g, still userAcceleration RMS "
            + "\(stillUserAccelerationRMS) g, still rotationRate mean \(stillRotationRateMean), "
            + "\(judgedRecords) records"
    }

    /// - Parameter alignYaw: for Z-Up, whose yaw is arbitrary, the yaw offset between estimate
    ///   and truth is taken at the settling time and held for the rest of the run.
    init(
        records: [DeviceMotion], trajectory: MotionTrajectory, startUptime: Double,
        alignYaw: Bool
    ) {
        var yawOffset = Quaternion.identity
        var aligned = !alignYaw
        var stillSquares = 0.0
        var stillCount = 0
        var stillRate = Vector3.zero
        var stillRateCount = 0
        for record in records {
            let t = record.uptime - startUptime
            guard t >= trajectory.settlingTime else { continue }
            let truth = trajectory.attitude(t)
            if !aligned {
                let difference = record.attitude * truth.conjugate
                let yaw = 2 * Double.atan2(y: difference.z, x: difference.w)
                yawOffset = Quaternion(angle: yaw, axis: Vector3(x: 0, y: 0, z: 1))
                aligned = true
            }
            judgedRecords += 1
            maximumGravityError = max(
                maximumGravityError, (record.gravity - trajectory.gravity(at: t)).magnitude)
            maximumAttitudeDegrees = max(
                maximumAttitudeDegrees, record.attitude.angle(to: yawOffset * truth) * 180 / .pi)
            maximumUserAccelerationError = max(
                maximumUserAccelerationError,
                (record.userAcceleration - trajectory.userAcceleration(at: t)).magnitude)
            if trajectory.isStill(at: t) {
                stillSquares += record.userAcceleration.magnitudeSquared
                stillCount += 1
                if t >= trajectory.settlingTime + 5 {
                    stillRate += record.rotationRate
                    stillRateCount += 1
                }
            }
        }
        stillUserAccelerationRMS = stillCount > 0 ? (stillSquares / Double(stillCount)).squareRoot() : 0
        stillRotationRateMean = stillRateCount > 0 ? stillRate * (1 / Double(stillRateCount)) : .zero
    }
}
