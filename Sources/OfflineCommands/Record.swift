import ArgumentParser
import CommandOutput
import AsyncActions
import Foundation
import Logging
import Motion
import MotionFusion
import TaskModel

/// `activetaskctl record`: records motion straight to a motion file through the daemon's own
/// motion recorder (same controller, same file format), for bringing up a board's IMU.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record motion sensors to a SageResearch motion file (JSON, or CSV for a .csv output).")

    @Option(name: .customLong("iio-uri"), help: "libiio context URI (local:, ip:HOST) or sim: for the simulated IMU.")
    var iioURI = "local:"

    @Option(help: "Comma-separated recorder types: accelerometer, gyro, magnetometer, gravity, userAcceleration, attitude, rotationRate, magneticField.")
    var types = "accelerometer,gyro"

    @Option(help: "Sampling frequency in Hz (the nearest the device offers is used).")
    var frequency: Double = 100

    @Option(help: "Seconds to record.")
    var duration: Double = 5

    @Option(help: "The motion file to write; a .csv name writes CSV.")
    var output: String

    @Option(help: "Step path written in the markers and records.")
    var stepPath = "record"

    @OptionGroup var gyroDelay: GyroDelayOption

    func validate() throws {
        guard frequency > 0, frequency.isFinite else { throw ValidationError("--frequency must be a positive number of hertz.") }
        guard duration >= 0, duration.isFinite else { throw ValidationError("--duration must be a number of seconds.") }
        _ = try recorderTypes()
    }

    private func recorderTypes() throws -> [MotionRecorderType] {
        try types.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let type = MotionRecorderType(rawValue: trimmed) else {
                throw ValidationError(
                    "\"\(trimmed)\" is not a recorder type; use \(MotionRecorderType.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return type
        }
    }

    func run() async throws {
        let delay = gyroDelay.seconds(orElse: fail)
        let logger = CommandLogging.logger(label: "activetaskctl.record")
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let isCSV = outputURL.pathExtension.lowercased() == "csv"
        let baseName = outputURL.deletingPathExtension().lastPathComponent
        let configuration = MotionRecorderConfiguration(
            identifier: baseName, recorderTypes: try recorderTypes(), frequency: frequency,
            shouldDeletePrevious: true, usesCSVEncoding: isCSV)
        let recorderOutput = RecorderOutput(
            directory: outputURL.deletingLastPathComponent(), baseName: baseName, taskRunUUID: UUID(),
            ownerPath: "activetaskctl", logger: logger)
        let recorder = MotionRecorder(
            configuration: configuration, output: recorderOutput, settings: MotionDeviceSettings(iioURI: iioURI),
            fusion: DeviceMotionFusion(settings: DeviceMotionEstimator.Settings(gyroDelay: delay)))
        do {
            try await recorder.requestPermission()
            try await recorder.start(stepPath: stepPath)
        } catch {
            fail("\(error)")
        }
        // Wait for the duration, leaving early when the recorder fails.
        let deadline = ContinuousClock.now + .milliseconds(Int(duration * 1000))
        while ContinuousClock.now < deadline {
            if await recorder.status == .failed { break }
            try await Task.sleep(for: min(.milliseconds(50), deadline - ContinuousClock.now))
        }
        let results: [any ResultData]
        do {
            results = try await recorder.stop()
        } catch {
            fail("\(error)")
        }
        for result in results {
            if let file = result as? FileResult {
                try JSONOutput.print(file)
            } else if let error = result as? ErrorResult {
                try JSONOutput.print(error)
                fail(error.errorDescription)
            }
        }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("activetaskctl record: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
