@testable import MotionFusion
import Testing

/// The opt-in gyro delay setting: the rate extrapolated ahead by the device's gyro lag.
@Suite("Gyro delay")
struct GyroDelayTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var delay: Double
        /// Samples fed in order (uptime, x rate); the expectation is for the last one.
        var samples: [(Double, Double)]
        var expected: Double
        var testDescription: String { name }
    }

    @Test("The rate is extrapolated linearly by the delay, except at the start, after a gap, or with no delay",
        arguments: [
            Case(name: "no delay passes the rate through", delay: 0, samples: [(0, 1), (0.01, 2)], expected: 2),
            Case(name: "first sample passes through", delay: 0.005, samples: [(0, 3)], expected: 3),
            Case(name: "half a step ahead", delay: 0.005, samples: [(0, 1), (0.01, 2)], expected: 2.5),
            Case(name: "one step ahead, uneven steps", delay: 0.02, samples: [(0, 0), (0.01, 1), (0.03, 2)], expected: 3),
            Case(name: "a falling rate", delay: 0.01, samples: [(0, 4), (0.01, 3)], expected: 2),
            Case(name: "a gap longer than the maximum step", delay: 0.005, samples: [(0, 1), (0.5, 2)], expected: 2),
            Case(name: "a repeated timestamp", delay: 0.005, samples: [(0, 1), (0, 2)], expected: 2),
        ])
    func extrapolation(_ test: Case) {
        var compensator = GyroDelayCompensator(delay: test.delay, maximumStep: 0.1)
        var rate = Vector3.zero
        for (uptime, x) in test.samples {
            rate = compensator.rate(for: TimedVector(uptime: uptime, value: Vector3(x: x, y: -x, z: 0)))
        }
        #expect(abs(rate.x - test.expected) < 1e-12, "\(rate)")
        #expect(abs(rate.y + test.expected) < 1e-12, "\(rate)")
    }

    /// Still for 4 s, then the rate about Z rises smoothly within 1 s to 240°/s and stays.
    static let spinUp = MotionTrajectory(
        name: "spin-up about Z", duration: 12, settlingTime: 3,
        attitude: { t in
            let rate = 240 * Double.pi / 180
            let s = max(0, t - 4)
            let angle = s < 1 ? rate * (s / 2 - Double.sin(.pi * s) / (2 * .pi)) : rate * (s - 0.5)
            return Quaternion(angle: angle, axis: Vector3(x: 0, y: 0, z: 1))
        },
        stillIntervals: [0...4])

    /// A 100 Hz gyro that reads the instantaneous rate 10 ms before its timestamp lags the
    /// convention (the mean rate since the previous sample, i.e. 5 ms before) by 5 ms: at
    /// 240°/s the attitude lags by a further 0.76° without the setting; with it the error is
    /// that of a gyro on the convention (0.47°, mostly the bias learned in the first seconds).
    @Test("A lagging gyro: the attitude lags by rate × lag unless the delay is set")
    func laggingGyro() {
        var sensors = SyntheticSensors()
        sensors.gyroRate = 100
        sensors.gyroLag = 0.01
        func maximumError(gyroDelay: Double, lag: Double = 0.01) -> Double {
            sensors.gyroLag = lag
            var estimator = DeviceMotionEstimator(settings: .init(referenceFrame: .zUp, gyroDelay: gyroDelay))
            let records = estimator.run(sensors.events(for: Self.spinUp))
            return FusionErrors(
                records: records, trajectory: Self.spinUp, startUptime: sensors.startUptime, alignYaw: true
            ).maximumAttitudeDegrees
        }
        let onConvention = maximumError(gyroDelay: 0, lag: 0.005)
        let uncompensated = maximumError(gyroDelay: 0)
        let compensated = maximumError(gyroDelay: 0.005)
        print("lagging gyro: \(uncompensated)° without the delay setting, \(compensated)° with it, \(onConvention)° on the convention")
        #expect(uncompensated >= onConvention + 0.5)
        #expect(abs(compensated - onConvention) <= 0.05)
    }
}
