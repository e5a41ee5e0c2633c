/// Compensates a gyroscope whose samples describe the rotation a little earlier than the
/// accelerometer's (its on-chip filter has a longer group delay): the rate is extrapolated
/// linearly `delay` seconds ahead from the last two samples, so the strapdown integration of a
/// step uses the rate of that step and not of an earlier one.
///
/// A per-device property, zero by default (then the rate passes through unchanged); see
/// docs/fusion.md ("Gyro delay") for how it was measured on BROAD's IMU. A pure value type: the
/// estimator feeds it every processed gyroscope sample in time order.
struct GyroDelayCompensator: Sendable {
    /// Seconds by which the gyroscope lags; 0 passes the rate through.
    let delay: Double
    /// Steps longer than this (a gap in the data) are not extrapolated across.
    let maximumStep: Double
    private var previous: TimedVector?

    init(delay: Double, maximumStep: Double) {
        self.delay = delay
        self.maximumStep = maximumStep
    }

    /// The rate `delay` seconds after `sample`'s, from `sample` and the previous sample; the
    /// sample's own rate for the first sample, after a gap, or with no delay.
    mutating func rate(for sample: TimedVector) -> Vector3 {
        defer { previous = sample }
        guard delay != 0, let previous else { return sample.value }
        let step = sample.uptime - previous.uptime
        guard step > 0, step <= maximumStep else { return sample.value }
        return sample.value + (sample.value - previous.value) * (delay / step)
    }
}
