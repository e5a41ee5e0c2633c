import Benchmark
import Foundation
import IIO
import Motion
import SampleFiles
import SystemPackage

/// Recorded scans of a combined IMU (accelerometer le:s16, gyroscope be:s12/16>>4, mount
/// matrix, s64 timestamp: 24-byte scans) pushed through the recorder's own data path: scan
/// conversion (`ScanBatchConverter`) → `MotionPipeline` → SageResearch JSON records in a
/// streaming `JSONArrayFile`. One iteration converts and writes 100 scans (a refill, larger than
/// the recorder's 20 ms ones so the harness's own cost is negligible): ns per scan = time per
/// iteration / 100.
let scansPerBatch = 100
let scanSize = 24

func recordedScans() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: scansPerBatch * scanSize)
    var time: Int64 = 5_000_000_000_000
    for scan in 0..<scansPerBatch {
        let base = scan * scanSize
        for axis in 0..<3 {
            let accel = Int16(truncatingIfNeeded: 100 * axis + scan * 7 - 300)
            bytes[base + axis * 2] = UInt8(truncatingIfNeeded: accel)
            bytes[base + axis * 2 + 1] = UInt8(truncatingIfNeeded: accel >> 8)
            let gyro = UInt16(bitPattern: Int16(truncatingIfNeeded: (scan * 13 - 900 + axis * 50) << 4))
            bytes[base + 6 + axis * 2] = UInt8(gyro >> 8)
            bytes[base + 6 + axis * 2 + 1] = UInt8(truncatingIfNeeded: gyro)
        }
        for byte in 0..<8 { bytes[base + 16 + byte] = UInt8(truncatingIfNeeded: time >> (8 * Int64(byte))) }
        time += 10_000_000
    }
    return bytes
}

func makeConverter() -> ScanBatchConverter {
    let accelType = ScanType(parsing: "le:s16/16>>0")!
    let gyroType = ScanType(parsing: "be:s12/16>>4")!
    let matrix = MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")!
    let accel = SensorConversion(
        sensor: .accelerometer, axes: (0..<3).map { AxisCalibration(scanOffset: $0 * 2, type: accelType, scale: 0.0023942) },
        mountMatrix: matrix)
    let gyro = SensorConversion(
        sensor: .gyroscope, axes: (0..<3).map { AxisCalibration(scanOffset: 6 + $0 * 2, type: gyroType, scale: 0.000305432, offset: -2) },
        mountMatrix: matrix)
    return ScanBatchConverter(
        conversions: [accel, gyro], timestamp: (16, ScanType(parsing: "le:s64/64>>0")!), clock: .boottime, frequency: 100)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], timeUnits: .nanoseconds,
        warmupIterations: 100, maxDuration: .seconds(5), maxIterations: 20_000)

    /// The recorder's data path: 100 recorded scans per inner iteration through conversion,
    /// the pipeline and the JSON writer into a real file.
    func pipelineBenchmark(_ benchmark: Benchmark) throws {
        let path = FilePath(NSTemporaryDirectory() + "motion-benchmark-\(UUID().uuidString).json")
        let writer = try MotionRecordWriter(path: path, csv: false, startUptime: 5000, policy: SyncPolicy(flushInterval: 0.25, syncInterval: 1))
        try writer.writeMarker(uptime: 5000, stepPath: "WalkAndBalance/walk/motion", timestampDate: "2026-11-22T04:00:00.000Z")
        let pipeline = MotionPipeline(writer: writer, rawTypes: [.accelerometer, .gyroscope], frequencies: [.accelerometer: 100, .gyroscope: 100], fusion: nil)
        var converter = makeConverter()
        let scans = recordedScans()
        var samples: [MotionSample] = []
        samples.reserveCapacity(scansPerBatch * 2)
        // Fill the writer's buffer once so steady state is measured.
        for _ in 0..<50 {
            samples.removeAll(keepingCapacity: true)
            scans.withUnsafeBytes { converter.convert(start: $0.baseAddress!, scans: scansPerBatch, step: scanSize, readTime: 0, into: &samples) }
            samples.withUnsafeBufferPointer { pipeline.receive($0) }
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            samples.removeAll(keepingCapacity: true)
            scans.withUnsafeBytes { converter.convert(start: $0.baseAddress!, scans: scansPerBatch, step: scanSize, readTime: 0, into: &samples) }
            samples.withUnsafeBufferPointer { pipeline.receive($0) }
        }
        benchmark.stopMeasurement()
        _ = try pipeline.close()
        try? FileManager.default.removeItem(atPath: path.string)
    }

    Benchmark("convert + JSON write, accel+gyro, \(scansPerBatch) scans per iteration") { benchmark in
        try pipelineBenchmark(benchmark)
    }

    // The CPU clock here ticks in 10 ms: 1000 inner iterations (100 000 scans, with the
    // writes and fsyncs that come with them) per sample make CPU time measurable.
    Benchmark(
        "convert + JSON write, accel+gyro, 100000 scans per iteration (CPU)",
        configuration: .init(metrics: [.cpuTotal, .cpuUser, .cpuSystem, .wallClock, .mallocCountTotal], timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 40)
    ) { benchmark in
        try pipelineBenchmark(benchmark)
    }

    Benchmark("convert only, accel+gyro, \(scansPerBatch) scans per iteration") { benchmark in
        var converter = makeConverter()
        let scans = recordedScans()
        var samples: [MotionSample] = []
        samples.reserveCapacity(scansPerBatch * 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            samples.removeAll(keepingCapacity: true)
            scans.withUnsafeBytes { converter.convert(start: $0.baseAddress!, scans: scansPerBatch, step: scanSize, readTime: 0, into: &samples) }
            blackHole(samples.count)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("breakdown: one record's JSON text (appendJSON), 200 records per iteration") { benchmark in
        var buffer = SampleByteBuffer(capacity: 256 * 1024)
        let stepPath = MotionRecordFormat.jsonStepPath("WalkAndBalance/walk/motion")
        let record = MotionRecord(sensorType: .gyro, uptime: 5000.123456789, x: 0.1234567, y: -0.987654321, z: 0.5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            buffer.removeAll()
            for _ in 0..<200 { MotionRecordFormat.appendJSON(record, timestamp: 0.123456789, stepPath: stepPath, to: &buffer) }
            blackHole(buffer.count)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("breakdown: MotionRecordWriter.write to a file, 200 records per iteration") { benchmark in
        let path = FilePath(NSTemporaryDirectory() + "motion-benchmark-\(UUID().uuidString).json")
        let writer = try MotionRecordWriter(path: path, csv: false, startUptime: 5000, policy: SyncPolicy(flushInterval: 0.25, syncInterval: 3600))
        try writer.writeMarker(uptime: 5000, stepPath: "WalkAndBalance/walk/motion", timestampDate: "2026-11-22T04:00:00.000Z")
        let record = MotionRecord(sensorType: .gyro, uptime: 5000.123456789, x: 0.1234567, y: -0.987654321, z: 0.5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for _ in 0..<200 { try writer.write(record) }
        }
        benchmark.stopMeasurement()
        try writer.close()
        try? FileManager.default.removeItem(atPath: path.string)
    }

    Benchmark("Double to JSON text, 1000 values per iteration") { benchmark in
        var buffer = SampleByteBuffer(capacity: 64 * 1024)
        let values = (0..<1000).map { Double($0) * 0.0123456789 - 3.3 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            buffer.removeAll()
            for value in values { buffer.append(double: value) }
            blackHole(buffer.count)
        }
        benchmark.stopMeasurement()
    }
}
