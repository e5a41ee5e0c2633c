import MotionFusion
import TestSupport

/// Ideal accelerometer, gyroscope and magnetometer readings of a `MotionTrajectory`, in
/// CoreMotion units and signs, plus seeded noise, a constant gyro bias and a hard-iron offset,
/// delivered in a chosen arrival order.
struct SyntheticSensors: Sendable {
    enum Sensor: String, Sendable { case accelerometer, gyro, magnetometer }

    struct Event: Sendable {
        var sensor: Sensor
        var uptime: Double
        var value: Vector3
    }

    var accelerometerRate = 100.0
    var gyroRate = 400.0
    /// 0 for no magnetometer.
    var magnetometerRate = 0.0
    var accelerometerNoise = 0.003
    var gyroNoise = 0.003
    var magnetometerNoise = 0.3
    var gyroBias = Vector3(x: 0.01, y: -0.015, z: 0.008)
    /// The gyroscope reads the rate this many seconds before its timestamp (an on-chip filter
    /// slower than the accelerometer's).
    var gyroLag = 0.0
    var hardIron = Vector3.zero
    /// The Earth's field in North-West-Up (µT): 20 µT north, 40 µT down.
    var earthField = Vector3(x: 20, y: 0, z: -40)
    /// A field added in the world frame (µT, North-West-Up) during an interval of seconds since
    /// the start: a magnet or steel near the device.
    var magneticDisturbance: (field: Vector3, interval: ClosedRange<Double>)?
    /// Uniform timestamp jitter of ± this many seconds.
    var timestampJitter = 0.0
    /// Each sample arrives up to this many seconds late (so streams interleave out of order).
    var arrivalDelay = 0.0
    var seed: UInt64 = 42
    /// Uptime of the trajectory's start.
    var startUptime = 1000.0

    /// All readings in arrival order.
    func events(for trajectory: MotionTrajectory) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        // Arrival delays draw from their own generator so they never change the readings.
        var arrivalGenerator = SeededGenerator(seed: seed ^ 0x5DEE_CE66)
        var timed: [(arrival: Double, event: Event)] = []
        func stream(_ sensor: Sensor, rate: Double, phase: Double, reading: (Double) -> Vector3) {
            guard rate > 0 else { return }
            let count = Int(trajectory.duration * rate)
            for index in 0..<count {
                var t = Double(index) / rate + phase / rate
                if timestampJitter > 0 {
                    t += Double.random(in: -timestampJitter...timestampJitter, using: &generator)
                }
                t = max(0, t)
                let value = reading(t)
                let delay = arrivalDelay > 0 ? Double.random(in: 0..<arrivalDelay, using: &arrivalGenerator) : 0
                timed.append(
                    (startUptime + t + delay, Event(sensor: sensor, uptime: startUptime + t, value: value)))
            }
        }
        func noise(_ sigma: Double) -> Vector3 {
            Vector3(
                x: generator.gaussian(standardDeviation: sigma),
                y: generator.gaussian(standardDeviation: sigma),
                z: generator.gaussian(standardDeviation: sigma))
        }
        stream(.gyro, rate: gyroRate, phase: 0.3) { t in
            trajectory.rotationRate(at: t - gyroLag) + gyroBias + noise(gyroNoise)
        }
        stream(.accelerometer, rate: accelerometerRate, phase: 0.1) { t in
            trajectory.gravity(at: t) + trajectory.userAcceleration(at: t) + noise(accelerometerNoise)
        }
        stream(.magnetometer, rate: magnetometerRate, phase: 0.7) { t in
            var field = earthField
            if let disturbance = magneticDisturbance, disturbance.interval.contains(t) { field += disturbance.field }
            return trajectory.attitude(t).inverseRotate(field) + hardIron + noise(magnetometerNoise)
        }
        return timed.sorted { $0.arrival < $1.arrival }.map(\.event)
    }
}

extension DeviceMotionEstimator {
    /// Feeds every event, draining after each, then finishes; returns all records.
    mutating func run(_ events: [SyntheticSensors.Event]) -> [DeviceMotion] {
        var records: [DeviceMotion] = []
        records.reserveCapacity(events.count)
        for event in events {
            let v = event.value
            switch event.sensor {
            case .accelerometer: accelerometer(x: v.x, y: v.y, z: v.z, uptime: event.uptime)
            case .gyro: gyro(x: v.x, y: v.y, z: v.z, uptime: event.uptime)
            case .magnetometer: magnetometer(x: v.x, y: v.y, z: v.z, uptime: event.uptime)
            }
            while let motion = nextMotion() { records.append(motion) }
        }
        finish()
        while let motion = nextMotion() { records.append(motion) }
        return records
    }
}
