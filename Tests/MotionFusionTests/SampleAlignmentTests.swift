import MotionFusion
import Testing

/// Streams at different rates, jittered timestamps and out-of-order arrival: the estimator
/// aligns on time, not on arrival.
@Suite("Sample alignment")
struct SampleAlignmentTests {
    static let trajectory = MotionTrajectory.tiltThenHold()

    @Test("Out-of-order arrival within the reorder window gives the same records as in order")
    func outOfOrderArrival() {
        let ordered = DeviceMotionEstimatorTests.run(Self.trajectory).records
        var late = SyntheticSensors()
        late.arrivalDelay = 0.04
        let events = late.events(for: Self.trajectory)
        let isShuffled = zip(events, events.dropFirst()).contains { $0.uptime > $1.uptime }
        #expect(isShuffled, "the delayed events should arrive out of time order")
        let (records, _, estimator) = DeviceMotionEstimatorTests.run(Self.trajectory, sensors: late)
        #expect(estimator.droppedSampleCount == 0)
        #expect(records == ordered)
    }

    struct RateCase: Sendable, CustomTestStringConvertible {
        var accelerometer: Double
        var gyro: Double
        var jitter: Double
        var testDescription: String { "accel \(accelerometer) Hz, gyro \(gyro) Hz, jitter ±\(jitter) s" }
    }

    @Test("Accuracy holds at different rates and with jittered timestamps", arguments: [
        RateCase(accelerometer: 100, gyro: 400, jitter: 0),
        RateCase(accelerometer: 100, gyro: 400, jitter: 0.001),
        RateCase(accelerometer: 400, gyro: 100, jitter: 0),
        RateCase(accelerometer: 100, gyro: 100, jitter: 0.002),
        RateCase(accelerometer: 50, gyro: 200, jitter: 0.002),
    ])
    func rates(_ rates: RateCase) {
        var sensors = SyntheticSensors()
        sensors.accelerometerRate = rates.accelerometer
        sensors.gyroRate = rates.gyro
        sensors.timestampJitter = rates.jitter
        sensors.arrivalDelay = 0.03
        let (records, errors, _) = DeviceMotionEstimatorTests.run(Self.trajectory, sensors: sensors)
        print("\(rates.testDescription): \(errors)")
        #expect(records.count == Int(Self.trajectory.duration * rates.gyro))
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.uptime < $1.uptime })
        #expect(errors.maximumGravityError <= 0.02, "\(errors)")
        #expect(errors.maximumAttitudeDegrees <= 2, "\(errors)")
        #expect(errors.maximumUserAccelerationError <= 0.04, "\(errors)")
    }

    @Test("A sample older than what was already processed is dropped and counted")
    func lateSampleDropped() {
        var estimator = DeviceMotionEstimator()
        for index in 0..<100 {
            let t = 10 + Double(index) * 0.01
            estimator.accelerometer(x: 0, y: 0, z: -1, uptime: t)
            estimator.gyro(x: 0, y: 0, z: 0, uptime: t)
        }
        var count = 0
        while estimator.nextMotion() != nil { count += 1 }
        #expect(count > 90)
        estimator.gyro(x: 0, y: 0, z: 0, uptime: 10.001)
        estimator.accelerometer(x: 0, y: 0, z: -1, uptime: 10.001)
        #expect(estimator.droppedSampleCount == 2)
    }

    @Test("Gyroscope samples wait for the accelerometer, then hold it after maximumWait")
    func waitsForAccelerometer() {
        var estimator = DeviceMotionEstimator()
        estimator.accelerometer(x: 0, y: 0, z: -1, uptime: 10)
        for index in 0..<20 {
            estimator.gyro(x: 0, y: 0, z: 0, uptime: 10 + Double(index) * 0.005)
        }
        // Gyro up to 10.095 s, accelerometer only at 10 s: nothing is ready yet.
        var early: [DeviceMotion] = []
        while let motion = estimator.nextMotion() { early.append(motion) }
        #expect(early.isEmpty)
        estimator.accelerometer(x: 0, y: 0, z: -1, uptime: 10.2)
        var later: [DeviceMotion] = []
        while let motion = estimator.nextMotion() { later.append(motion) }
        #expect(early.count + later.count == 10, "gyro up to 10.045 s is ready (window 0.05 s)")
        // The accelerometer stops; gyro goes on to 10.8 s: after maximumWait (0.5 s) the
        // accelerometer is held, so gyro up to 10.3 s comes out.
        for index in 20...160 {
            estimator.gyro(x: 0, y: 0, z: 0, uptime: 10 + Double(index) * 0.005)
        }
        while let motion = estimator.nextMotion() { later.append(motion) }
        #expect(later.last.map { abs($0.uptime - 10.3) < 1e-9 } == true)
        estimator.finish()
        while let motion = estimator.nextMotion() { later.append(motion) }
        #expect(early.count + later.count == 161)
    }
}
