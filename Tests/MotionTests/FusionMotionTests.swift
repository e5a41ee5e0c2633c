import Foundation
import Testing

/// Device motion with a known truth through the real pipeline (issue 4): the test states a
/// device attitude over time, turns it into the raw scans an IMU would send (accelerometer =
/// gravity only, since every motion here rotates about the sensor itself; gyroscope = the body
/// rate), quantised by the emulated device's scale and mapped back through its mount matrix,
/// then runs the built `activetaskctl record --iio-uri local:` under umockdev-run and judges the
/// fused records against that truth after a settling time.
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

    // MARK: Pipeline run and judgement

    /// The truth: attitude (device → Z-Up) and body rotation rate (rad/s) at `t` seconds from
    /// the first scan, sampled for `duration` seconds.
    struct Truth {
        var duration: Double
        var attitude: (Double) -> Quaternion
        var rate: (Double) -> Vector

        func gravity(_ t: Double) -> Vector { attitude(t).inverseRotate(Vector(0, 0, -1)) }
    }

    /// Worst errors of the judged records against the truth.
    struct Errors: CustomStringConvertible {
        var maximumGravity = 0.0  // g, |gravity − truth|
        var maximumTiltDegrees = 0.0  // the attitude's own gravity direction against truth
        var maximumAttitudeDegrees = 0.0  // whole attitude, yaw offset held from the settling time
        var maximumUserAcceleration = 0.0  // g, |userAcceleration| (truth is 0 throughout)
        var maximumRateError = 0.0  // rad/s, |rotationRate − truth|
        var attitudeYawRate = 0.0  // rad/s, mean over the judged span, from the attitude
        var finalTiltDegrees = 0.0  // angle between the last attitude's Z and the reference Z
        var judged = 0

        var description: String {
            String(
                format: "gravity %.4f g, tilt %.3f°, attitude %.3f°, userAcceleration %.4f g, rotationRate %.5f rad/s, attitude yaw rate %.3f°/s, %d records",
                maximumGravity, maximumTiltDegrees, maximumAttitudeDegrees, maximumUserAcceleration, maximumRateError,
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

    /// Generates the scans, records gravity, userAcceleration, attitude, rotationRate (and the
    /// raw accelerometer and gyro, to check that the scans carry the truth), judges them and
    /// prints the measured errors.
    func record(_ truth: Truth, on device: EmulatedIIODevice, name: String) async throws -> Errors {
        let period = UmockdevRecordTests.period104
        let start: Int64 = 6_000_000_000_000
        let count = Int((truth.duration * 1e9 / Double(period)).rounded())
        let accel = Conversion(device: device, type: "accel")
        let gyro = Conversion(device: device, type: "anglvel")
        func time(_ i: Int) -> Double { Double(Int64(i) * period) / 1e9 }
        let scans = (0..<count).map { i in
            let t = time(i)
            let a = accel.raw(truth.gravity(t) * -9.80665)
            let g = gyro.raw(truth.rate(t))
            return device.scan([
                "accel_x": [a[0]], "accel_y": [a[1]], "accel_z": [a[2]],
                "anglvel_x": [g[0]], "anglvel_y": [g[1]], "anglvel_z": [g[2]],
                "timestamp": [start + Int64(i) * period],
            ])
        }
        var testbed = UmockdevTestbed()
        testbed.add(device, scans: scans, scansPerChunk: 16, delay: 5)
        let file = testbed.path("motion.json")
        let command = "\"$CTL\" record --iio-uri local: --types accelerometer,gyro,gravity,userAcceleration,attitude,rotationRate --frequency 104 --duration 1.5 --output \(file)"
        let output = try await testbed.run(command)
        #expect(output.status == 0, "\(output.stderr)")
        let records = try UmockdevTestbed.records(at: file)
        func of(_ type: String) -> [[String: Any]] { records.filter { $0["sensorType"] as? String == type } }
        func vector(_ r: [String: Any]) -> Vector { Vector(r["x"] as? Double ?? .nan, r["y"] as? Double ?? .nan, r["z"] as? Double ?? .nan) }
        let rawAccel = of("accelerometer"), rawGyro = of("gyro")
        let gravity = of("gravity"), user = of("userAcceleration"), attitude = of("attitude"), rate = of("rotationRate")
        // libiio hands over whole buffers (20 ms = 3 scans at 104 Hz), so when the emulated
        // stream ends a trailing partial buffer is never read; everything before it must be,
        // with one fused record of each type per gyro scan.
        let received = rawGyro.count
        try #require(received > count - 3 && received <= count && rawAccel.count == received, "\(rawAccel.count), \(received) of \(count) scans")
        try #require(gravity.count == received && user.count == received && attitude.count == received && rate.count == received)

        var errors = Errors()
        var yawOffset: Quaternion?
        var yawSpan: (start: (t: Double, yaw: Double), last: (t: Double, yaw: Double))?
        for i in 0..<received {
            let t = time(i)
            let uptime = Double(start + Int64(i) * period) / 1e9
            for list in [rawAccel, rawGyro, gravity, user, attitude, rate] {
                #expect(abs((list[i]["uptime"] as? Double ?? 0) - uptime) < 1e-6)
            }
            // The scans carry the truth to within the ADC's rounding.
            #expect((vector(rawAccel[i]) - truth.gravity(t)).magnitude <= 0.001, "accelerometer at \(t) s")
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
            errors.maximumUserAcceleration = max(errors.maximumUserAcceleration, vector(user[i]).magnitude)
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
