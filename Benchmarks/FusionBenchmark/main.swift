// Micro-benchmark and CSV driver for MotionFusion.
//
//   fusion-bench [seconds]                 time the estimator on synthetic data (release build!);
//       with LD_PRELOAD of scripts/bench/malloc_count.c (see there) it also counts heap allocations
//   fusion-bench fuse IN.csv OUT.csv [--north-west-up] [--gyro-delay SECONDS]
//       fuse `sensor,uptime,x,y,z` rows (sensor: accelerometer|gyro|magnetometer, CoreMotion
//       units) into `uptime,qx,qy,qz,qw,gravityX..Z,userAccelerationX..Z,rotationRateX..Z,heading`
//       rows, for scripts/fusion_compare.py.
import Foundation
import MotionFusion

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
    try fuse(
        input: arguments[2], output: arguments[3], northWestUp: arguments.contains("--north-west-up"),
        gyroDelay: gyroDelay)
} else {
    benchmark(seconds: arguments.count >= 2 ? Double(arguments[1]) ?? 60 : 60)
    if let total = allocationCount() {
        // Shows the counter is live: setup (sample arrays, estimators, printing) does allocate.
        print("heap allocations in the whole process: \(total)")
    }
}

func fuse(input: String, output: String, northWestUp: Bool, gyroDelay: Double) throws {
    let text = try String(contentsOfFile: input, encoding: .utf8)
    var estimator = DeviceMotionEstimator(
        settings: .init(referenceFrame: northWestUp ? .northWestUp : .zUp, gyroDelay: gyroDelay))
    var out = "uptime,qx,qy,qz,qw,gx,gy,gz,ux,uy,uz,rx,ry,rz,heading\n"
    func drain() {
        while let m = estimator.nextMotion() {
            let values = [
                m.uptime, m.attitude.x, m.attitude.y, m.attitude.z, m.attitude.w,
                m.gravity.x, m.gravity.y, m.gravity.z,
                m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z,
                m.rotationRate.x, m.rotationRate.y, m.rotationRate.z, m.heading ?? -1,
            ]
            out += values.map { String($0) }.joined(separator: ",") + "\n"
        }
    }
    for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: ",")
        guard fields.count == 5, let t = Double(fields[1]), let x = Double(fields[2]),
            let y = Double(fields[3]), let z = Double(fields[4])
        else { continue }
        switch fields[0] {
        case "accelerometer": estimator.accelerometer(x: x, y: y, z: z, uptime: t)
        case "gyro": estimator.gyro(x: x, y: y, z: z, uptime: t)
        case "magnetometer": estimator.magnetometer(x: x, y: y, z: z, uptime: t)
        default: continue
        }
        drain()
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
