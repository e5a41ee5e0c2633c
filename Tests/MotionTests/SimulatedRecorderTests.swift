import Clocks
import AsyncActions
import Foundation
import Logging
import Testing
import TaskModel

@testable import Motion

/// The motion recorder controller in-process on the built-in simulated IMU (`sim:`).
@Suite("Motion recorder on the simulated IMU")
struct SimulatedRecorderTests {
    private func output(_ name: String = "motion") -> RecorderOutput {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("motion-recorder-\(UUID().uuidString)")
        return RecorderOutput(directory: directory, baseName: name, taskRunUUID: UUID(), ownerPath: "Walk", logger: Logger(label: "test"))
    }

    private func records(_ url: URL) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
    }

    @Test("Lifecycle: permission, start, step markers, stop with a file result; status only moves forward")
    func lifecycle() async throws {
        let output = output()
        let configuration = MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.accelerometer, .gyro, .magnetometer], frequency: 100)
        let recorder = MotionRecorder(configuration: configuration, output: output, settings: MotionDeviceSettings(iioURI: "sim:walking"))
        let collector = Task {
            var statuses: [AsyncActionStatus] = []
            for await event in recorder.events {
                if let status = event.status { statuses.append(status) }
            }
            return statuses
        }
        try await recorder.requestPermission()
        #expect(await recorder.status == .permissionGranted)
        try await recorder.start(stepPath: "Walk/instruction")
        try await Task.sleep(for: .milliseconds(250))
        await recorder.moveTo(stepPath: "Walk/walk")
        try await Task.sleep(for: .milliseconds(250))
        let results = try await recorder.stop()
        let stoppedAt = RecordingClock.uptime()
        #expect(await recorder.status == .finished)
        #expect(await collector.value == [.requestingPermission, .permissionGranted, .starting, .running, .waitingToStop, .processingResults, .stopping, .finished])

        let file = try #require(results.first as? FileResult)
        #expect(file.identifier == "motion")
        #expect(file.relativePath == "motion.json")
        #expect(file.contentType == "application/json")
        #expect(file.notes.contains { $0.contains("simulated IMU") })
        let startUptime = try #require(file.startUptime)

        let all = try records(output.url(fileExtension: "json"))
        let markers = all.filter { $0["sensorType"] == nil }
        #expect(markers.map { $0["stepPath"] as? String } == ["Walk/instruction", "Walk/walk"])
        // Marker timestamps are seconds since the recorder started (MobilePassiveData moveTo).
        #expect(markers.allSatisfy { $0["timestampDate"] is String })
        #expect(markers.first?["uptime"] as? Double == startUptime)
        #expect(markers.first?["timestamp"] as? Double == 0)
        let secondUptime = try #require(markers.last?["uptime"] as? Double)
        let secondTimestamp = try #require(markers.last?["timestamp"] as? Double)
        #expect(abs(secondTimestamp - (secondUptime - startUptime)) < 1e-9)
        #expect(secondTimestamp > 0.2)
        for type in ["accelerometer", "gyro", "magnetometer"] {
            let samples = all.filter { $0["sensorType"] as? String == type }
            // About 0.5 s at 100 Hz, every 10 ms without a gap, none from the future (the source
            // is paced in real time).
            #expect(samples.count > 10, "\(type): \(samples.count)")
            let uptimes = samples.compactMap { $0["uptime"] as? Double }
            #expect(zip(uptimes, uptimes.dropFirst()).allSatisfy { abs(($1 - $0) - 0.01) < 1e-6 })
            #expect(uptimes.allSatisfy { $0 >= startUptime && $0 <= stoppedAt })
            #expect(samples.allSatisfy { abs(($0["timestamp"] as! Double) - (($0["uptime"] as! Double) - startUptime)) < 1e-9 })
        }
        // A sample carries the step showing at its own time, wherever it was written.
        let samples = all.filter { $0["sensorType"] != nil }
        #expect(samples.allSatisfy { sample in
            let uptime = sample["uptime"] as! Double
            return sample["stepPath"] as? String == (uptime >= secondUptime ? "Walk/walk" : "Walk/instruction")
        })
        #expect(samples.contains { $0["stepPath"] as? String == "Walk/walk" })
        #expect(samples.contains { $0["stepPath"] as? String == "Walk/instruction" })
        // Walking with the device face-up: gravity on −z in CoreMotion's sign.
        let z = all.filter { $0["sensorType"] as? String == "accelerometer" }.compactMap { $0["z"] as? Double }
        let meanZ = z.reduce(0, +) / Double(z.count)
        #expect(meanZ < -0.7 && meanZ > -1.3)
    }

    @Test("Progress: once a second of samples, the records written and the rate each sensor achieved")
    func progress() async throws {
        let configuration = MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.accelerometer, .gyro], frequency: 100)
        let recorder = MotionRecorder(configuration: configuration, output: output(), settings: MotionDeviceSettings(iioURI: "sim:still"))
        let collector = Task {
            var figures: [(Int, Double)] = []
            for await event in recorder.events {
                if case .progress(.motion(let written, let rate)) = event.kind { figures.append((written, rate)) }
            }
            return figures
        }
        try await recorder.requestPermission()
        let started = ContinuousClock.now
        try await recorder.start(stepPath: "s")
        try await Task.sleep(for: .milliseconds(2_600))
        _ = try await recorder.stop()
        // 2.6 s, or longer when the sleep overran on a busy pool (the whole suite under a sanitizer).
        let recorded = Int((ContinuousClock.now - started).components.seconds)
        let figures = await collector.value
        // One event per whole second of samples: two or three in 2.6 s; at most one more than the
        // whole seconds measured (the simulated IMU can lag on a starved machine, never lead).
        #expect((2...(recorded + 1)).contains(figures.count), "\(figures.count) progress events in \(recorded) s")
        #expect(figures.allSatisfy { abs($0.1 - 100) < 5 }, "\(figures.map(\.1))")
        #expect(zip(figures, figures.dropFirst()).allSatisfy { $1.0 - $0.0 >= 190 })
    }

    @Test("Device-motion types without a fusion stage fail at permission with a clear error result")
    func fusedTypesWithoutFusion() async throws {
        let configuration = MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.accelerometer, .attitude, .gravity])
        let recorder = MotionRecorder(configuration: configuration, output: output(), settings: MotionDeviceSettings(iioURI: "sim:"))
        await #expect {
            try await recorder.requestPermission()
        } throws: { error in
            guard let error = error as? AsyncActionError else { return false }
            return error.code == .unsupported && error.message.contains("attitude, gravity") && error.message.contains("sensor fusion")
        }
        #expect(await recorder.status == .failed)
        var failure: ErrorResult?
        for await event in recorder.events {
            if case .failed(let result) = event.kind { failure = result }
        }
        #expect(failure?.identifier == "motion_error")
        #expect(failure?.errorCode == AsyncActionError.Code.unsupported.rawValue)
    }

    @Test("A source URI that cannot be opened fails permission")
    func badSource() async {
        let recorder = MotionRecorder(configuration: MotionRecorderConfiguration(identifier: "m"), output: output(), settings: MotionDeviceSettings(iioURI: "sim:flying"))
        await #expect(throws: AsyncActionError.self) { try await recorder.requestPermission() }
        #expect(await recorder.status == .failed)
    }

    @Test("Cancel stops recording and deletes the file")
    func cancel() async throws {
        let output = output()
        let recorder = MotionRecorder(configuration: MotionRecorderConfiguration(identifier: "m"), output: output, settings: MotionDeviceSettings(iioURI: "sim:still"))
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "s")
        try await Task.sleep(for: .milliseconds(100))
        await recorder.cancel()
        #expect(await recorder.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.url(fileExtension: "json").path))
        #expect(try await recorder.stop().isEmpty)
    }

    @Test("shouldDeletePrevious false keeps an existing file and writes beside it; true replaces it")
    func previousFiles() async throws {
        let output = output()
        try FileManager.default.createDirectory(at: output.directory, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: output.url(fileExtension: "json"))
        // FileUtility's 4-character suffix for a name taken (was -2).
        for (keep, expectedPath) in [(true, "motion-0001.json"), (false, "motion.json")] {
            let configuration = MotionRecorderConfiguration(identifier: "motion", frequency: 10, shouldDeletePrevious: !keep)
            let recorder = MotionRecorder(configuration: configuration, output: output, settings: MotionDeviceSettings(iioURI: "sim:still"))
            try await recorder.requestPermission()
            try await recorder.start(stepPath: "s")
            let file = try #require(try await recorder.stop().first as? FileResult)
            #expect(file.relativePath == expectedPath)
        }
        #expect(try String(contentsOf: output.url(fileExtension: "json"), encoding: .utf8).hasPrefix("[\n{\"uptime\""))
    }

    @Test("usesCSVEncoding writes CSV with a text/csv file result")
    func csv() async throws {
        let output = output()
        let configuration = MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.gyro], frequency: 50, usesCSVEncoding: true)
        let recorder = MotionRecorder(configuration: configuration, output: output, settings: MotionDeviceSettings(iioURI: "sim:"))
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "s")
        try await Task.sleep(for: .milliseconds(200))
        let file = try #require(try await recorder.stop().first as? FileResult)
        #expect(file.contentType == "text/csv")
        #expect(file.relativePath == "motion.csv")
        let lines = try String(contentsOf: output.url(fileExtension: "csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w")
        #expect(lines.dropFirst(2).allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false)[4] == "gyro" })
    }

    @Test("A fusion stage plugs in between conversion and writing and its records are written")
    func fusionPlugPoint() async throws {
        let output = output()
        let configuration = MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.accelerometer, .rotationRate], frequency: 50)
        let recorder = MotionRecorder(configuration: configuration, output: output, settings: MotionDeviceSettings(iioURI: "sim:"), fusion: GyroPassThroughFusion())
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "s")
        try await Task.sleep(for: .milliseconds(200))
        _ = try await recorder.stop()
        let all = try records(output.url(fileExtension: "json"))
        let rotation = all.filter { $0["sensorType"] as? String == "rotationRate" }
        #expect(!rotation.isEmpty)
        // Raw gyro was not asked for, so only the fused type appears.
        #expect(all.allSatisfy { $0["sensorType"] as? String != "gyro" })
        #expect(all.contains { $0["sensorType"] as? String == "accelerometer" })
    }
}

/// Exercises the recorder's fusion plug point only: rotationRate is the gyroscope's reading
/// (CoreMotion's rotationRate is the bias-corrected gyro). The real filter is MotionFusion.
private final class GyroPassThroughFusion: MotionFusionFactory, MotionFusionStage {
    var producibleTypes: Set<MotionRecorderType> { [.rotationRate] }
    func requiredSensors(for types: Set<MotionRecorderType>) -> Set<SensorKind> { [.accelerometer, .gyroscope] }
    func makeStage(types: Set<MotionRecorderType>, frequency: Double) -> any MotionFusionStage { self }
    func consume(_ sample: MotionSample, emit: (MotionRecord) -> Void) {
        guard sample.sensor == .gyroscope else { return }
        emit(MotionRecord(sensorType: .rotationRate, uptime: sample.uptime, x: sample.x, y: sample.y, z: sample.z))
    }
    func finish(emit: (MotionRecord) -> Void) {}
}
