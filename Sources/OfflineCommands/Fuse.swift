import ArgumentParser
import Foundation
import Motion
import MotionFusion
import SystemPackage
import TaskModel

/// `activetaskctl fuse`: offline fusion of a raw motion file (accelerometer, gyro, magnetometer
/// records; markers allowed) through the recorder's own estimator (`DeviceMotionFusion`),
/// writing device-motion records in the recorder's format, to re-process raw recordings.
struct Fuse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fuse a raw motion file (JSON or CSV) into device-motion records (JSON, or CSV for a .csv output).")

    @Argument(help: "The raw motion file: a SageResearch motion JSON array or CSV with accelerometer, gyro (and magnetometer) records.")
    var input: String

    @Option(help: "The motion file to write; a .csv name writes CSV.")
    var output: String

    @Option(help: "Comma-separated types to write: gravity, userAcceleration, attitude, rotationRate, magneticField, and raw accelerometer, gyro, magnetometer to copy them through. Default: the four device-motion types, plus magneticField when the input has a magnetometer.")
    var types: String?

    @Option(help: "Attitude reference frame: z-up or north-west-up (default: north-west-up when magneticField is written, else z-up, as the recorder).")
    var reference: String?

    @OptionGroup var gyroDelay: GyroDelayOption

    func validate() throws {
        _ = try recorderTypes(hasMagnetometer: true)
        _ = try referenceFrame()
    }

    private func recorderTypes(hasMagnetometer: Bool) throws -> Set<MotionRecorderType> {
        guard let types else {
            return hasMagnetometer
                ? [.gravity, .userAcceleration, .attitude, .rotationRate, .magneticField]
                : [.gravity, .userAcceleration, .attitude, .rotationRate]
        }
        return Set(try types.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let type = MotionRecorderType(rawValue: trimmed) else {
                throw ValidationError(
                    "\"\(trimmed)\" is not a recorder type; use \(MotionRecorderType.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return type
        })
    }

    private func referenceFrame() throws -> ReferenceFrame? {
        switch reference?.lowercased() {
        case nil: return nil
        case "z-up": return .zUp
        case "north-west-up": return .northWestUp
        case let other?: throw ValidationError("--reference \"\(other)\" is neither z-up nor north-west-up.")
        }
    }

    func run() throws {
        let delay = gyroDelay.seconds(orElse: fail)
        let file: RawMotionFile
        do {
            file = try RawMotionFile(path: input)
        } catch {
            fail(error.description)
        }
        let hasMagnetometer = file.entries.contains {
            if case .sample(let sample) = $0 { sample.sensor == .magnetometer } else { false }
        }
        let types = try recorderTypes(hasMagnetometer: hasMagnetometer)
        let frame = try referenceFrame()
        if !hasMagnetometer, types.contains(.magneticField) || frame == .northWestUp {
            fail("\(input) has no magnetometer records: magneticField and a North-West-Up attitude need them; use --reference z-up without magneticField.")
        }
        let fusion = DeviceMotionFusion(settings: DeviceMotionEstimator.Settings(gyroDelay: delay), referenceFrame: frame)
        let stage = fusion.makeStage(types: types.intersection(fusion.producibleTypes), frequency: 0)
        let firstUptime = file.entries.lazy.compactMap { entry -> Double? in
            if case .sample(let sample) = entry { sample.uptime } else { nil }
        }.first ?? 0
        do {
            let writer = try MotionRecordWriter(
                path: FilePath(output), csv: output.lowercased().hasSuffix(".csv"),
                startUptime: file.startUptime ?? firstUptime, policy: .default)
            var pendingMarkers = file.entries.compactMap { entry -> (Double, String, String)? in
                if case .marker(let uptime, let stepPath, let date) = entry { (uptime, stepPath, date) } else { nil }
            }[...]
            var failure: (any Error)?
            // Markers go before the first record at or after their time (fused records come
            // out later than the samples that made them).
            func write(_ record: MotionRecord) {
                guard failure == nil else { return }
                do {
                    while let marker = pendingMarkers.first, marker.0 <= record.uptime {
                        try writer.writeMarker(uptime: marker.0, stepPath: marker.1, timestampDate: marker.2)
                        pendingMarkers.removeFirst()
                    }
                    try writer.write(record)
                } catch {
                    failure = error
                }
            }
            for entry in file.entries {
                guard case .sample(let sample) = entry else { continue }
                if types.contains(sample.sensor.recorderType) { write(MotionRecord(sample)) }
                stage.consume(sample, emit: write)
            }
            stage.finish(emit: write)
            if let failure { throw failure }
            for marker in pendingMarkers {
                try writer.writeMarker(uptime: marker.0, stepPath: marker.1, timestampDate: marker.2)
            }
            try writer.close()
        } catch {
            fail("cannot write \(output): \(error)")
        }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("activetaskctl fuse: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
