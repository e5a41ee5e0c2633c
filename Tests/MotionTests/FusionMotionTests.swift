import Foundation
import Testing
import TestSupport

/// Device motion with a known truth through the real pipeline (issue 4): the test states a
/// device attitude and linear acceleration over time, turns them into the raw scans an IMU would
/// send (accelerometer = gravity plus userAcceleration, the latter zero except for the walk, whose
/// other motions rotate about the sensor itself; gyroscope = the body rate), quantised by the
/// emulated device's scale and mapped back through its mount matrix, then runs the built
/// `activetaskctl record --iio-uri local:` under umockdev-run and judges the fused records against
/// that truth after a settling time.
///
/// Truth is computed here, independently of the product: attitude `q` rotates device vectors
/// into the Z-Up reference (`v_ref = q v q*`), gravity is `q* (0, 0, −1) q` in g, IIO reads
/// +9.80665 m/s² along "up". Z-Up yaw is arbitrary at start, so the yaw offset between estimate
/// and truth is taken at the settling time and held: later yaw drift counts as attitude error.
@Suite("Device motion with known truth from emulated IIO devices", .serialized, .enabled(if: UmockdevTestbed.isAvailable))
struct FusionMotionTests {
    /// Seconds from the first scan after which records are judged.
    static let settlingTime = 1.5
    static let gravityTolerance = 0.02  // g
    static let attitudeTolerance = 2.0  // degrees
    static let userAccelerationTolerance = 0.02  // g
    static let rotationRateTolerance = 0.002  // rad/s
    /// While walking the accelerometer carries linear acceleration, so userAcceleration's error
    /// is the gravity error plus the accelerometer's rounding (half an LSB per axis, < 0.001 g).
    static let walkUserAccelerationTolerance = gravityTolerance + 0.001  // g

    // MARK: Cases

    /// Lying still with one device axis pointing up.
    enum Orientation: String, CaseIterable, Sendable {
        case faceUp, faceDown, xUp, xDown, yUp, yDown

        var up: Vector {
            switch self {
            case .faceUp: Vector(0, 0, 1)
            case .faceDown: Vector(0, 0, -1)
            case .xUp: Vector(1, 0, 0)
            case .xDown: Vector(-1, 0, 0)
            case .yUp: Vector(0, 1, 0)
            case .yDown: Vector(0, -1, 0)
            }
        }
    }

    /// A device axis to rotate about at a constant rate, starting face up.
    enum Axis: String, CaseIterable, Sendable {
        case x, y, z

        var unit: Vector {
            switch self {
            case .x: Vector(1, 0, 0)
            case .y: Vector(0, 1, 0)
            case .z: Vector(0, 0, 1)
            }
        }
    }

    @Test("Still in six orientations: gravity, attitude tilt, zero userAcceleration and rotationRate", arguments: Orientation.allCases)
    func still(_ orientation: Orientation) async throws {
        let start = Quaternion.arc(from: orientation.up, to: Vector(0, 0, 1))
        let truth = Truth(duration: 3, attitude: { _ in start }, rate: { _ in .zero })
        let errors = try await record(truth, on: UmockdevRecordTests.combinedIMU(timestampClock: "boottime"), name: "still \(orientation)")
        #expect(errors.maximumUserAcceleration <= Self.userAccelerationTolerance, "\(errors)")
        #expect(errors.maximumRateError <= Self.rotationRateTolerance, "\(errors)")
    }

    /// At 240°/s one sample at 104 Hz is 2.3°: a filter that lags or leads by a sample fails.
    @Test("Constant rotation at 60°/s and 240°/s about each device axis from face up", arguments: Axis.allCases, [60.0, 240.0])
    func rotation(_ axis: Axis, degreesPerSecond: Double) async throws {
        let rate = degreesPerSecond * Double.pi / 180
        let truth = Truth(
            duration: 3.5, attitude: { t in Quaternion(angle: rate * t, axis: axis.unit) }, rate: { _ in axis.unit * rate })
        let errors = try await record(truth, on: Self.rotationIMU, name: "rotation \(axis) \(degreesPerSecond)°/s")
        #expect(errors.maximumRateError <= Self.rotationRateTolerance, "\(errors)")
        #expect(errors.maximumUserAcceleration <= Self.userAccelerationTolerance, "\(errors)")
        if axis == .z {
            // About the vertical axis only yaw changes: its rate, read from the attitude alone.
            #expect(abs(errors.attitudeYawRate - rate) <= 0.01 * rate, "yaw rate \(errors.attitudeYawRate) rad/s")
        }
    }

    @Test("Tilt by 60° about a horizontal diagonal in 1 s, then hold")
    func tiltThenHold() async throws {
        // Still 1 s, raised-cosine tilt (peak 94°/s) for 1 s, then still 2 s.
        let axis = Vector(1, 1, 0) * (1 / 2.0.squareRoot())
        let angle = 60 * Double.pi / 180
        let (begin, span) = (1.0, 1.0)
        func phase(_ t: Double) -> Double { min(max((t - begin) / span, 0), 1) }
        let truth = Truth(
            duration: 4,
            attitude: { t in Quaternion(angle: angle * (1 - cos(.pi * phase(t))) / 2, axis: axis) },
            rate: { t in axis * (angle * .pi / (2 * span) * sin(.pi * phase(t))) })
        let errors = try await record(truth, on: Self.rotationIMU, name: "tilt then hold")
        #expect(errors.maximumRateError <= Self.rotationRateTolerance, "\(errors)")
        #expect(errors.maximumUserAcceleration <= Self.userAccelerationTolerance, "\(errors)")
        // The hold really was judged, and it ended on the tilted attitude.
        #expect(errors.finalTiltDegrees >= 59 && errors.finalTiltDegrees <= 61, "\(errors)")
    }

    /// Hand-held walking as in MotionFusionTests' filter-level walk: the device tilted 30°,
    /// swaying in pitch at the 2 Hz step rate and in roll and yaw at the 1 Hz stride rate, with
    /// 0.3 g vertical bounce and 0.15 g fore-aft surge at 2 Hz and 0.08 g sideways at 1 Hz. The
    /// walk starts at 3 s, after the filter's initialisation period (high gain, no acceleration
    /// rejection), and eases in over 1 s.
    @Test("Walk: 2 Hz bounce and surge of up to 0.3 g with periodic tilts and yaw sway")
    func walk() async throws {
        let lead = 3.0
        let base = Quaternion(angle: 30 * Double.pi / 180, axis: Vector(1, 0, 0))
        func envelope(_ t: Double) -> Double { min(max(t - lead, 0), 1) }
        let attitude: (Double) -> Quaternion = { t in
            let w = max(t - lead, 0)
            let pitch = 4 * Double.pi / 180 * sin(2 * .pi * 2 * w)
            let roll = 3 * Double.pi / 180 * sin(2 * .pi * w + 0.4)
            let yaw = 6 * Double.pi / 180 * sin(2 * .pi * w)
            return Quaternion(angle: envelope(t) * yaw, axis: Vector(0, 0, 1)) * base
                * Quaternion(angle: envelope(t) * pitch, axis: Vector(1, 0, 0))
                * Quaternion(angle: envelope(t) * roll, axis: Vector(0, 1, 0))
        }
        let truth = Truth(
            duration: 9, attitude: attitude, rate: { t in Truth.bodyRate(of: attitude, at: t) },
            linearAcceleration: { t in
                let w = max(t - lead, 0)
                return Vector(0.15 * sin(2 * .pi * 2 * w + 1), 0.08 * sin(2 * .pi * w), 0.3 * sin(2 * .pi * 2 * w)) * envelope(t)
            })
        let errors = try await record(truth, on: Self.rotationIMU, name: "walk")
        #expect(errors.maximumRateError <= Self.rotationRateTolerance, "\(errors)")
        #expect(errors.maximumUserAcceleration <= Self.walkUserAccelerationTolerance, "\(errors)")
        // The walk really was judged: userAcceleration swung by its truth's size.
        #expect(errors.maximumTrueUserAcceleration >= 0.3, "\(errors)")
    }

    /// Separate chips at different rates, each stamping its own scans: the accelerometer at
    /// 100 Hz, the gyroscope at 400 Hz starting 1.1 ms later (so no accelerometer time is a
    /// gyroscope time) and mounted turned 90° about z. The device turns 420° about a tilted axis
    /// at up to 240°/s, where each millisecond of misalignment between the accelerometer and the
    /// gyroscope's time puts about 0.004 g into userAcceleration: holding the previous
    /// accelerometer sample instead of interpolating (up to 8.6 ms) fails.
    @Test("Accelerometer at 100 Hz and gyroscope at 400 Hz on separate devices: one fused record per gyro scan, on its time")
    func separateRates() async throws {
        let axis = Vector(1, -1, 0.5) * (1 / Vector(1, -1, 0.5).magnitude)
        let rate = 240 * Double.pi / 180
        // Still 0.5 s, raised-cosine ramps of 0.25 s up to and down from full rate, still from 2.5 s.
        let (rise, fall, ramp) = (0.5, 2.25, 0.25)
        func up(_ t: Double) -> Double { let u = min(max(t, 0), ramp); return (1 - cos(.pi * u / ramp)) / 2 }
        func upIntegral(_ t: Double) -> Double { let u = min(max(t, 0), ramp); return u / 2 - ramp / (2 * .pi) * sin(.pi * u / ramp) }
        func speed(_ t: Double) -> Double { up(t - rise) - up(t - fall) }
        func turned(_ t: Double) -> Double {  // seconds' worth of full rate so far; 1.75 in all
            upIntegral(t - rise) + max(t - rise - ramp, 0) - upIntegral(t - fall) - max(t - fall - ramp, 0)
        }
        let truth = Truth(
            duration: 3, attitude: { t in Quaternion(angle: rate * turned(t), axis: axis) }, rate: { t in axis * (rate * speed(t)) })
        let errors = try await recordSeparate(truth, name: "separate 100 Hz accelerometer, 400 Hz gyroscope")
        #expect(errors.maximumRateError <= Self.rotationRateTolerance, "\(errors)")
        #expect(errors.maximumUserAcceleration <= Self.userAccelerationTolerance, "\(errors)")
        // The hold after 420° about the axis really was judged.
        let finalTilt = truth.attitude(truth.duration).rotate(Vector(0, 0, 1)).angle(to: Vector(0, 0, 1)) * 180 / .pi
        #expect(abs(errors.finalTiltDegrees - finalTilt) <= 1, "final tilt \(finalTilt)°: \(errors)")
    }

    // MARK: Pipeline run and judgement

    /// The truth: attitude (device → Z-Up), body rotation rate (rad/s) and linear acceleration
    /// (Z-Up frame, g, physical sign: up is +z) at `t` seconds from the first scan, sampled for
    /// `duration` seconds.
    struct Truth {
        var duration: Double
        var attitude: (Double) -> Quaternion
        var rate: (Double) -> Vector
        var linearAcceleration: (Double) -> Vector = { _ in .zero }

        func gravity(_ t: Double) -> Vector { attitude(t).inverseRotate(Vector(0, 0, -1)) }

        /// CoreMotion's userAcceleration has the accelerometer's sign: minus the physical
        /// acceleration, in the device frame.
        func userAcceleration(_ t: Double) -> Vector { attitude(t).inverseRotate(linearAcceleration(t) * -1) }

        /// What the accelerometer reads in g, CoreMotion sign.
        func accelerometer(_ t: Double) -> Vector { gravity(t) + userAcceleration(t) }

        /// Body rate (rad/s, device frame) of an attitude function: 2 Im(q* dq/dt), by central
        /// difference.
        static func bodyRate(of attitude: (Double) -> Quaternion, at t: Double) -> Vector {
            let h = 1e-5
            let (before, q, after) = (attitude(t - h), attitude(t), attitude(t + h))
            let derivative = Quaternion(
                x: (after.x - before.x) / (2 * h), y: (after.y - before.y) / (2 * h),
                z: (after.z - before.z) / (2 * h), w: (after.w - before.w) / (2 * h))
            let product = q.conjugate * derivative
            return Vector(2 * product.x, 2 * product.y, 2 * product.z)
        }
    }

    /// Worst errors of the judged records against the truth.
    struct Errors: CustomStringConvertible {
        var maximumGravity = 0.0  // g, |gravity − truth|
        var maximumTiltDegrees = 0.0  // the attitude's own gravity direction against truth
        var maximumAttitudeDegrees = 0.0  // whole attitude, yaw offset held from the settling time
        var maximumUserAcceleration = 0.0  // g, |userAcceleration − truth|
        var maximumTrueUserAcceleration = 0.0  // g, the truth's largest |userAcceleration|
        var maximumRateError = 0.0  // rad/s, |rotationRate − truth|
        var attitudeYawRate = 0.0  // rad/s, mean over the judged span, from the attitude
        var finalTiltDegrees = 0.0  // angle between the last attitude's Z and the reference Z
        var judged = 0

        var description: String {
            String(
                format: "gravity %.4f g, tilt %.3f°, attitude %.3f°, userAcceleration %.4f g (of up to %.3f g), rotationRate %.5f rad/s, attitude yaw rate %.3f°/s, %d records",
                maximumGravity, maximumTiltDegrees, maximumAttitudeDegrees, maximumUserAcceleration, maximumTrueUserAcceleration, maximumRateError,
                attitudeYawRate * 180 / .pi, judged)
        }
    }

    /// A combined IMU whose 16-bit gyroscope (8.75 mdeg/s per LSB, ±286°/s) holds fast
    /// rotations, which the 12-bit one of `UmockdevRecordTests.combinedIMU` (±36°/s) cannot;
    /// its chip is turned 90° about x on the board (mount matrix).
    static let rotationIMU = EmulatedIIODevice(
        number: 0, name: "imu6dof-fast",
        attributes: [
            ("sampling_frequency", "104"), ("sampling_frequency_available", "26 52 104 208"),
            ("in_accel_scale", "0.0023942"), ("in_accel_mount_matrix", "1, 0, 0; 0, 0, -1; 0, 1, 0"),
            ("in_anglvel_scale", "0.000152716"), ("in_anglvel_mount_matrix", "1, 0, 0; 0, 0, -1; 0, 1, 0"),
            ("current_timestamp_clock", "boottime"),
        ],
        channels: [
            .init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
            .init(id: "accel_z", index: 2, type: "le:s16/16>>0"), .init(id: "anglvel_x", index: 3, type: "le:s16/16>>0"),
            .init(id: "anglvel_y", index: 4, type: "le:s16/16>>0"), .init(id: "anglvel_z", index: 5, type: "le:s16/16>>0"),
            .init(id: "timestamp", index: 6, type: "le:s64/64>>0"),
        ])

    /// A sensor's conversion as the emulated device states it (sysfs attributes).
    struct Conversion {
        var scale: Double
        var offset: Double
        var matrix: [[Double]]

        init(device: EmulatedIIODevice, type: String) {
            let attributes = Dictionary(device.attributes, uniquingKeysWith: { first, _ in first })
            scale = Double(attributes["in_\(type)_scale"] ?? "1")!
            offset = Double(attributes["in_\(type)_offset"] ?? "0")!
            matrix = (attributes["in_\(type)_mount_matrix"] ?? "1, 0, 0; 0, 1, 0; 0, 0, 1")
                .split(separator: ";").map { $0.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces))! } }
        }

        /// The raw chip reading for an SI vector in the device frame: the mount matrix is a
        /// rotation, so its transpose undoes it; then rounded as the ADC would.
        func raw(_ si: Vector) -> [Int64] {
            let v = [si.x, si.y, si.z]
            return (0..<3).map { column in
                let chip = (0..<3).map { matrix[$0][column] * v[$0] }.reduce(0, +)
                return Int64((chip / scale - offset).rounded())
            }
        }
    }

    /// Generates the scans of one combined IMU at 104 Hz, records gravity, userAcceleration,
    /// attitude, rotationRate (and the raw accelerometer and gyro, to check that the scans carry
    /// the truth), judges them and prints the measured errors.
    func record(_ truth: Truth, on device: EmulatedIIODevice, name: String) async throws -> Errors {
        let period = UmockdevRecordTests.period104
        let start: Int64 = 6_000_000_000_000
        let count = Int((truth.duration * 1e9 / Double(period)).rounded())
        let times = (0..<count).map { start + Int64($0) * period }
        let accel = Conversion(device: device, type: "accel")
        let gyro = Conversion(device: device, type: "anglvel")
        let scans = times.map { time in
            let t = Double(time - start) / 1e9
            let a = accel.raw(truth.accelerometer(t) * -9.80665)
            let g = gyro.raw(truth.rate(t))
            return device.scan([
                "accel_x": [a[0]], "accel_y": [a[1]], "accel_z": [a[2]],
                "anglvel_x": [g[0]], "anglvel_y": [g[1]], "anglvel_z": [g[2]],
                "timestamp": [time],
            ])
        }
        var testbed = UmockdevTestbed()
        testbed.add(device, scans: scans, scansPerChunk: 16, delay: 5)
        let file = testbed.path("motion.json")
        let command = "\"$CTL\" record --iio-uri local: --types accelerometer,gyro,gravity,userAcceleration,attitude,rotationRate --frequency 104 --duration 1.5 --output \(file)"
        let output = try await testbed.run(command)
        #expect(output.status == 0, "\(output.stderr)")
        // libiio hands over whole buffers (20 ms = 3 scans at 104 Hz), so when the emulated
        // stream ends a trailing partial buffer is never read.
        return try judge(
            UmockdevTestbed.records(at: file), truth: truth, start: start,
            accelerometer: (times, unread: 3), gyro: (times, unread: 3), name: name)
    }

    /// A 100 Hz accelerometer with its own timestamps (identity mount, ±2 g).
    static let separateAccelerometer = EmulatedIIODevice(
        number: 0, name: "accel3d-100",
        attributes: [("sampling_frequency", "100"), ("sampling_frequency_available", "100"), ("in_accel_scale", "0.000598"), ("current_timestamp_clock", "boottime")],
        channels: [
            .init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
            .init(id: "accel_z", index: 2, type: "le:s16/16>>0"), .init(id: "timestamp", index: 3, type: "le:s64/64>>0"),
        ])

    /// A 400 Hz gyroscope (±286°/s) with its own timestamps, its chip turned 90° about z.
    static let separateGyroscope = EmulatedIIODevice(
        number: 1, name: "gyro3d-400",
        attributes: [
            ("sampling_frequency", "400"), ("sampling_frequency_available", "400 800 1600"), ("in_anglvel_scale", "0.000152716"),
            ("in_anglvel_mount_matrix", "0, -1, 0; 1, 0, 0; 0, 0, 1"), ("current_timestamp_clock", "boottime"),
        ],
        channels: [
            .init(id: "anglvel_x", index: 0, type: "le:s16/16>>0"), .init(id: "anglvel_y", index: 1, type: "le:s16/16>>0"),
            .init(id: "anglvel_z", index: 2, type: "le:s16/16>>0"), .init(id: "timestamp", index: 3, type: "le:s64/64>>0"),
        ])

    /// Like `record` from `separateAccelerometer` (100 Hz) and `separateGyroscope` (400 Hz, its
    /// timestamps 1.1 ms after a multiple of the accelerometer's period). Both streams come in
    /// real time, 20 ms per read as libiio's buffers are sized, so neither runs ahead of the
    /// other by more than a scheduling delay, as with real chips.
    func recordSeparate(_ truth: Truth, name: String) async throws -> Errors {
        let start: Int64 = 7_000_000_000_000
        let accelTimes = (0..<Int((truth.duration * 100).rounded())).map { start + Int64($0) * 10_000_000 }
        let gyroTimes = (0..<Int((truth.duration * 400).rounded())).map { start + 1_100_000 + Int64($0) * 2_500_000 }
        func t(_ time: Int64) -> Double { Double(time - start) / 1e9 }
        let accelDevice = Self.separateAccelerometer, gyroDevice = Self.separateGyroscope
        let accel = Conversion(device: accelDevice, type: "accel")
        let gyro = Conversion(device: gyroDevice, type: "anglvel")
        var testbed = UmockdevTestbed()
        testbed.add(
            accelDevice,
            scans: accelTimes.map { time in
                let a = accel.raw(truth.accelerometer(t(time)) * -9.80665)
                return accelDevice.scan(["accel_x": [a[0]], "accel_y": [a[1]], "accel_z": [a[2]], "timestamp": [time]])
            }, scansPerChunk: 2, delay: 20)
        testbed.add(
            gyroDevice,
            scans: gyroTimes.map { time in
                let g = gyro.raw(truth.rate(t(time)))
                return gyroDevice.scan(["anglvel_x": [g[0]], "anglvel_y": [g[1]], "anglvel_z": [g[2]], "timestamp": [time]])
            }, scansPerChunk: 8, delay: 20)
        let file = testbed.path("motion.json")
        let command = "\"$CTL\" record --iio-uri local: --types accelerometer,gyro,gravity,userAcceleration,attitude,rotationRate --frequency 100 --duration \(truth.duration + 1) --output \(file)"
        let output = try await testbed.run(command)
        #expect(output.status == 0, "\(output.stderr)")
        return try judge(
            UmockdevTestbed.records(at: file), truth: truth, start: start,
            accelerometer: (accelTimes, unread: 2), gyro: (gyroTimes, unread: 8), name: name)
    }

    /// Judges recorded raw and fused records against the truth. `accelerometer` and `gyro` are
    /// the times of the scans sent, and how many trailing ones may stay unread (a partial
    /// buffer). Fused records must come one per gyro scan read, on its time.
    func judge(
        _ records: [[String: Any]], truth: Truth, start: Int64,
        accelerometer: (times: [Int64], unread: Int), gyro: (times: [Int64], unread: Int), name: String
    ) throws -> Errors {
        func of(_ type: String) -> [[String: Any]] { records.filter { $0["sensorType"] as? String == type } }
        func vector(_ r: [String: Any]) -> Vector { Vector(r["x"] as? Double ?? .nan, r["y"] as? Double ?? .nan, r["z"] as? Double ?? .nan) }
        func time(_ ns: Int64) -> Double { Double(ns - start) / 1e9 }
        let rawAccel = of("accelerometer"), rawGyro = of("gyro")
        let gravity = of("gravity"), user = of("userAcceleration"), attitude = of("attitude"), rate = of("rotationRate")
        let received = rawGyro.count
        try #require(
            rawAccel.count > accelerometer.times.count - accelerometer.unread && rawAccel.count <= accelerometer.times.count
                && received > gyro.times.count - gyro.unread && received <= gyro.times.count,
            "\(rawAccel.count) of \(accelerometer.times.count) accelerometer scans, \(received) of \(gyro.times.count) gyro scans")
        try #require(gravity.count == received && user.count == received && attitude.count == received && rate.count == received)

        for (i, record) in rawAccel.enumerated() {
            let t = time(accelerometer.times[i])
            #expect(abs((record["uptime"] as? Double ?? 0) - Double(accelerometer.times[i]) / 1e9) < 1e-6)
            // The scans carry the truth to within the ADC's rounding.
            #expect((vector(record) - truth.accelerometer(t)).magnitude <= 0.001, "accelerometer at \(t) s")
        }
        var errors = Errors()
        var yawOffset: Quaternion?
        var yawSpan: (start: (t: Double, yaw: Double), last: (t: Double, yaw: Double))?
        for i in 0..<received {
            let t = time(gyro.times[i])
            let uptime = Double(gyro.times[i]) / 1e9
            for list in [rawGyro, gravity, user, attitude, rate] {
                #expect(abs((list[i]["uptime"] as? Double ?? 0) - uptime) < 1e-6)
            }
            #expect((vector(rawGyro[i]) - truth.rate(t)).magnitude <= 0.0003, "gyro at \(t) s")
            guard t >= Self.settlingTime else { continue }
            let a = attitude[i]
            let q = Quaternion(x: a["x"] as? Double ?? .nan, y: a["y"] as? Double ?? .nan, z: a["z"] as? Double ?? .nan, w: a["w"] as? Double ?? .nan)
            let truthAttitude = truth.attitude(t)
            let offset = yawOffset ?? {
                let difference = q * truthAttitude.conjugate
                return Quaternion(angle: 2 * atan2(difference.z, difference.w), axis: Vector(0, 0, 1))
            }()
            yawOffset = offset
            let degrees = 180 / Double.pi
            errors.judged += 1
            errors.maximumGravity = max(errors.maximumGravity, (vector(gravity[i]) - truth.gravity(t)).magnitude)
            errors.maximumTiltDegrees = max(errors.maximumTiltDegrees, q.inverseRotate(Vector(0, 0, -1)).angle(to: truth.gravity(t)) * degrees)
            errors.maximumAttitudeDegrees = max(errors.maximumAttitudeDegrees, q.angle(to: offset * truthAttitude) * degrees)
            errors.maximumUserAcceleration = max(errors.maximumUserAcceleration, (vector(user[i]) - truth.userAcceleration(t)).magnitude)
            errors.maximumTrueUserAcceleration = max(errors.maximumTrueUserAcceleration, truth.userAcceleration(t).magnitude)
            errors.maximumRateError = max(errors.maximumRateError, (vector(rate[i]) - truth.rate(t)).magnitude)
            errors.finalTiltDegrees = q.rotate(Vector(0, 0, 1)).angle(to: Vector(0, 0, 1)) * degrees
            // Yaw of the device's X axis in the reference frame, unwrapped.
            let x = q.rotate(Vector(1, 0, 0))
            var yaw = atan2(x.y, x.x)
            if let last = yawSpan?.last.yaw { yaw = last + remainder(yaw - last, 2 * .pi) }
            yawSpan = (yawSpan?.start ?? (t, yaw), (t, yaw))
        }
        if let yawSpan, yawSpan.last.t > yawSpan.start.t {
            errors.attitudeYawRate = (yawSpan.last.yaw - yawSpan.start.yaw) / (yawSpan.last.t - yawSpan.start.t)
        }
        print("FusionMotionTests \(name) after \(Self.settlingTime) s: \(errors)")
        #expect(errors.judged >= Int((truth.duration - Self.settlingTime) * 100))
        #expect(errors.maximumGravity <= Self.gravityTolerance, "\(name): \(errors)")
        #expect(errors.maximumTiltDegrees <= Self.attitudeTolerance, "\(name): \(errors)")
        #expect(errors.maximumAttitudeDegrees <= Self.attitudeTolerance, "\(name): \(errors)")
        return errors
    }

    // MARK: Test-side vector and quaternion math

    struct Vector: Sendable {
        var x, y, z: Double
        init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
        static let zero = Vector(0, 0, 0)
        static func + (a: Vector, b: Vector) -> Vector { Vector(a.x + b.x, a.y + b.y, a.z + b.z) }
        static func - (a: Vector, b: Vector) -> Vector { Vector(a.x - b.x, a.y - b.y, a.z - b.z) }
        static func * (a: Vector, s: Double) -> Vector { Vector(a.x * s, a.y * s, a.z * s) }
        func dot(_ b: Vector) -> Double { x * b.x + y * b.y + z * b.z }
        func cross(_ b: Vector) -> Vector { Vector(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
        var magnitude: Double { dot(self).squareRoot() }
        /// Radians between two non-zero vectors (atan2 form: accurate near 0 and π).
        func angle(to b: Vector) -> Double { atan2(cross(b).magnitude, dot(b)) }
    }

    /// Hamilton quaternion (x, y, z, w).
    struct Quaternion: Sendable {
        var x, y, z, w: Double

        init(x: Double, y: Double, z: Double, w: Double) { (self.x, self.y, self.z, self.w) = (x, y, z, w) }

        /// Rotation by `angle` radians (right-hand rule) about the unit `axis`.
        init(angle: Double, axis: Vector) {
            let s = sin(angle / 2)
            self.init(x: axis.x * s, y: axis.y * s, z: axis.z * s, w: cos(angle / 2))
        }

        /// The shortest rotation taking unit vector `from` onto unit vector `to` (half a turn
        /// about x when they are opposite).
        static func arc(from: Vector, to: Vector) -> Quaternion {
            let axis = from.cross(to)
            guard axis.magnitude > 1e-12 else {
                return from.dot(to) > 0 ? Quaternion(x: 0, y: 0, z: 0, w: 1) : Quaternion(angle: .pi, axis: Vector(1, 0, 0))
            }
            return Quaternion(angle: from.angle(to: to), axis: axis * (1 / axis.magnitude))
        }

        var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

        static func * (a: Quaternion, b: Quaternion) -> Quaternion {
            Quaternion(
                x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
        }

        /// `q v q*`: a device-frame vector in the reference frame.
        func rotate(_ v: Vector) -> Vector {
            let p = self * Quaternion(x: v.x, y: v.y, z: v.z, w: 0) * conjugate
            return Vector(p.x, p.y, p.z)
        }

        /// `q* v q`: a reference-frame vector in the device frame.
        func inverseRotate(_ v: Vector) -> Vector { conjugate.rotate(v) }

        /// Radians of the rotation between two attitudes (sign of q ignored).
        func angle(to b: Quaternion) -> Double {
            let d = (self.conjugate * b)
            return 2 * atan2(Vector(d.x, d.y, d.z).magnitude, abs(d.w))
        }
    }
}
