// Micro-benchmark and CSV driver for MotionFusion.
//
//   fusion-bench [seconds]                 time the estimator on synthetic data (release build!);
//       with LD_PRELOAD of scripts/bench/malloc_count.c (see there) it also counts heap allocations
//   fusion-bench fuse IN.csv OUT.csv [--north-west-up] [--gyro-delay SECONDS]
//           [--settings FILE.json] [--set KEY=VALUE]... [--attitude-only]
//       fuse `sensor,uptime,x,y,z` rows (sensor: accelerometer|gyro|magnetometer, CoreMotion
//       units) into `uptime,qx,qy,qz,qw,gravityX..Z,userAccelerationX..Z,rotationRateX..Z,heading`
//       rows (only `uptime,qx,qy,qz,qw` with --attitude-only), for scripts/fusion_compare.py and
//       bench/fusion-broad. --settings (a flat JSON object) and --set override fields of
//       DeviceMotionEstimator.Settings by path, applied in that order after --gyro-delay
//       (FusionBenchSupport/SettingsOverride.swift; docs/fusion.md, "Cross-validated").
//   fusion-bench settings-keys
//       list the keys --set and --settings accept.
import Foundation
import FusionBenchSupport
import MotionFusion

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// The allocation count of scripts/bench/malloc_count.c when it is preloaded, else nil.
func allocationCount() -> UInt? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "activetask_malloc_count") else { return nil }
    return UInt(unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)())
}

let arguments = CommandLine.arguments
if arguments.count >= 4, arguments[1] == "fuse" {
    var gyroDelay = 0.0
    if let flag = arguments.firstIndex(of: "--gyro-delay") {
        guard flag + 1 < arguments.count, let seconds = Double(arguments[flag + 1]), seconds.isFinite else {
            FileHandle.standardError.write(Data("--gyro-delay needs a number of seconds, e.g. --gyro-delay 0.00175.\n".utf8))
            exit(1)
        }
        gyroDelay = seconds
    }
    var settings = DeviceMotionEstimator.Settings(
        referenceFrame: arguments.contains("--north-west-up") ? .northWestUp : .zUp, gyroDelay: gyroDelay)
    do {
        var overrides: [SettingsOverride] = []
        for (index, argument) in arguments.enumerated() where argument == "--settings" || argument == "--set" {
            guard index + 1 < arguments.count else { fail("\(argument) needs a value: --settings FILE.json or --set KEY=VALUE.") }
            let value = arguments[index + 1]
            if argument == "--settings" {
                guard let data = FileManager.default.contents(atPath: value) else {
                    fail("Cannot read the settings file \(value): pass an existing JSON file.")
                }
                overrides = (try SettingsOverride.parse(json: data, file: value)) + overrides
            } else {
                overrides.append(try SettingsOverride(parsing: value))
            }
        }
        for override in overrides { try override.apply(to: &settings) }
    } catch {
        fail(error.description)
    }
    try fuse(
        input: arguments[2], output: arguments[3], settings: settings,
        attitudeOnly: arguments.contains("--attitude-only"))
} else if arguments.count == 2, arguments[1] == "settings-keys" {
    print(SettingsOverride.keys.joined(separator: "\n"))
} else {
    benchmark(seconds: arguments.count >= 2 ? Double(arguments[1]) ?? 60 : 60)
    if let total = allocationCount() {
        // Shows the counter is live: setup (sample arrays, estimators, printing) does allocate.
        print("heap allocations in the whole process: \(total)")
    }
}

func fuse(input: String, output: String, settings: DeviceMotionEstimator.Settings, attitudeOnly: Bool) throws {
    let text = try String(contentsOfFile: input, encoding: .utf8)
    var estimator = DeviceMotionEstimator(settings: settings)
    var out = attitudeOnly ? "uptime,qx,qy,qz,qw\n" : "uptime,qx,qy,qz,qw,gx,gy,gz,ux,uy,uz,rx,ry,rz,heading\n"
    func drain() {
        while let m = estimator.nextMotion() {
            if attitudeOnly {
                out += "\(m.uptime),\(m.attitude.x),\(m.attitude.y),\(m.attitude.z),\(m.attitude.w)\n"
                continue
            }
            let values = [
                m.uptime, m.attitude.x, m.attitude.y, m.attitude.z, m.attitude.w,
                m.gravity.x, m.gravity.y, m.gravity.z,
                m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z,
                m.rotationRate.x, m.rotationRate.y, m.rotationRate.z, m.heading ?? -1,
            ]
            out += values.map { String($0) }.joined(separator: ",") + "\n"
        }
    }
    let sensorNames = ["accelerometer", "gyro", "magnetometer"]
    // Bytes and strtod rather than String.split and Double(Substring): several times faster on
    // the 10 MB files of bench/fusion-cv, which fuses each many times.
    text.utf8CString.withUnsafeBufferPointer { buffer in
        guard var cursor = buffer.baseAddress else { return }
        let end = cursor + buffer.count - 1
        func skipLine() {
            while cursor < end, cursor.pointee != 0x0A { cursor += 1 }
            if cursor < end { cursor += 1 }
        }
        skipLine()  // header
        while cursor < end {
            let start = cursor
            while cursor < end, cursor.pointee != 0x2C, cursor.pointee != 0x0A { cursor += 1 }
            guard cursor < end, cursor.pointee == 0x2C else { skipLine(); continue }
            let sensor = sensorNames.firstIndex { name in
                name.count == cursor - start && strncmp(start, name, name.count) == 0
            }
            var values = (0.0, 0.0, 0.0, 0.0)
            var complete = true
            for index in 0..<4 {
                cursor += 1
                var next: UnsafeMutablePointer<CChar>?
                let value = strtod(cursor, &next)
                guard let next, UnsafePointer(next) != cursor else { complete = false; break }
                cursor = UnsafePointer(next)
                switch index {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                default: values.3 = value
                }
                if index < 3, cursor.pointee != 0x2C { complete = false; break }
            }
            skipLine()
            guard complete else { continue }
            let (t, x, y, z) = values
            switch sensor {
            case 0: estimator.accelerometer(x: x, y: y, z: z, uptime: t)
            case 1: estimator.gyro(x: x, y: y, z: z, uptime: t)
            case 2: estimator.magnetometer(x: x, y: y, z: z, uptime: t)
            default: continue
            }
            drain()
        }
    }
    estimator.finish()
    drain()
    try out.write(toFile: output, atomically: true, encoding: .utf8)
}

/// Interleaved synthetic samples: gyro 400 Hz, accelerometer 100 Hz, magnetometer 50 Hz, a
/// device turning slowly with noise (a cheap generator: the point is timing, not accuracy).
struct Sample {
    var sensor: UInt8
    var uptime: Double
    var x: Double, y: Double, z: Double
}

func syntheticSamples(seconds: Double, magnetometer: Bool) -> [Sample] {
    var state: UInt64 = 0x1234_5678
    func noise() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.01
    }
    var samples: [Sample] = []
    let gyroCount = Int(seconds * 400)
    for index in 0..<gyroCount {
        let t = 100 + Double(index) / 400
        let angle = 0.5 * t
        samples.append(Sample(sensor: 1, uptime: t, x: 0.5 + noise(), y: noise(), z: 0.01 + noise()))
        if index % 4 == 0 {
            samples.append(Sample(
                sensor: 0, uptime: t + 0.0001, x: noise(), y: sin(angle) + noise(),
                z: -cos(angle) + noise()))
        }
        if magnetometer, index % 8 == 0 {
            samples.append(Sample(
                sensor: 2, uptime: t + 0.0002, x: 20 + noise(), y: 40 * sin(angle) + noise(),
                z: -40 * cos(angle) + noise()))
        }
    }
    return samples
}

/// The filter core alone (rest detection, bias and attitude update per gyro sample, accelerometer
/// already aligned), comparable with Fusion's C `FusionBiasUpdate` + `FusionAhrsUpdateNoMagnetometer`.
func benchmarkCore(count: Int) {
    var state: UInt64 = 99
    func noise() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 2
    }
    let gyro = (0..<count).map { _ in Vector3(x: noise(), y: noise(), z: noise()) }
    let accelerometer = Vector3(x: 0, y: 0, z: -1)
    var best = Double.infinity
    var checksum = 0.0
    for _ in 0..<5 {
        var filter = OrientationFilter()
        filter.initialise(accelerometer: accelerometer)
        let clock = ContinuousClock()
        let start = clock.now
        for rate in gyro {
            filter.update(gyro: rate, accelerometer: accelerometer, magnetometer: nil, deltaTime: 0.0025)
        }
        let elapsed = start.duration(to: clock.now)
        checksum += filter.attitude.w
        best = min(best, (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(count))
    }
    print("Filter core (OrientationFilter with bias and rest detection, Double): "
        + String(format: "%.1f ns per update, best of 5 x %d [checksum %.3f]", best, count, checksum))
}

func benchmark(seconds: Double) {
    benchmarkCore(count: 2_000_000)
    for (name, frame, magnetometer) in [
        ("Z-Up, accel 100 Hz + gyro 400 Hz", ReferenceFrame.zUp, false),
        ("North-West-Up, + magnetometer 50 Hz", ReferenceFrame.northWestUp, true),
    ] {
        let samples = syntheticSamples(seconds: seconds, magnetometer: magnetometer)
        var best = Double.infinity
        var records = 0
        var checksum = 0.0
        var allocations: UInt = 0
        for _ in 0..<7 {
            var estimator = DeviceMotionEstimator(settings: .init(referenceFrame: frame))
            records = 0
            let allocationsBefore = allocationCount() ?? 0
            let clock = ContinuousClock()
            let start = clock.now
            for s in samples {
                switch s.sensor {
                case 0: estimator.accelerometer(x: s.x, y: s.y, z: s.z, uptime: s.uptime)
                case 1: estimator.gyro(x: s.x, y: s.y, z: s.z, uptime: s.uptime)
                default: estimator.magnetometer(x: s.x, y: s.y, z: s.z, uptime: s.uptime)
                }
                while let motion = estimator.nextMotion() {
                    records += 1
                    checksum += motion.gravity.z
                }
            }
            estimator.finish()
            while let motion = estimator.nextMotion() {
                records += 1
                checksum += motion.gravity.z
            }
            let elapsed = start.duration(to: clock.now)
            allocations = (allocationCount() ?? 0) - allocationsBefore
            let nanoseconds = Double(elapsed.components.seconds) * 1e9
                + Double(elapsed.components.attoseconds) / 1e9
            best = min(best, nanoseconds)
        }
        print(
            "\(name): \(samples.count) samples, \(records) records, best of 7: "
                + String(format: "%.1f ns per record (gyro scan), %.1f ns per input sample", best / Double(records), best / Double(samples.count))
                + " [checksum \(String(format: "%.3f", checksum))]"
                + (allocationCount() == nil ? "" : "; heap allocations in the loop: \(allocations)"))
    }
}
