import Foundation
import Glibc
import TestSupport

/// Builds run directories from real recordings: motion through umockdev + libiio `local:` and
/// the built `activetaskctl record`, audio through ALSA `type file` PCMs and `activetaskctl
/// record-audio`, plus a hand-written task result and prompt log, as the session writes them.
struct RecordedRun {
    /// Faults to put into the emulated devices.
    struct Faults {
        /// Seconds of timestamps skipped after scan 150.
        var gapSeconds: Double?
        var stuckAccelerometerY = false
        /// Every 10th accelerometer x sample at the positive rail (raw 32767).
        var clippedAccelerometerX = false
        var silentMicrophone = false
        var clippedMicrophone = false
        /// Seconds the second prompt is heard after its time.
        var promptLateness = 0.02
        var controllerFailure = false
        /// Also record the fused types (attitude, userAcceleration) and put a task copy with the
        /// motion frequency and step timers in the run directory.
        var fusedAndTaskCopy = false
    }

    static let accelScale = 0.0023942  // 4096 raw = 9.8066 m/s² = 1 g
    static let gyroScale = 0.000305432
    static let period: Int64 = 9_615_385  // ns at 104 Hz
    static let seconds = 3.0

    let directory: URL

    static func boottimeNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    static var imu: EmulatedIIODevice {
        EmulatedIIODevice(
            number: 0, name: "qcimu",
            attributes: [
                ("sampling_frequency", "52"), ("sampling_frequency_available", "12.5 26 52 104 208"),
                ("in_accel_scale", "\(accelScale)"), ("in_anglvel_scale", "\(gyroScale)"), ("current_timestamp_clock", "realtime"),
            ],
            channels: [
                .init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
                .init(id: "accel_z", index: 2, type: "le:s16/16>>0"), .init(id: "anglvel_x", index: 3, type: "le:s16/16>>0"),
                .init(id: "anglvel_y", index: 4, type: "le:s16/16>>0"), .init(id: "anglvel_z", index: 5, type: "le:s16/16>>0"),
                .init(id: "timestamp", index: 6, type: "le:s64/64>>0"),
            ])
    }

    /// A device lying still face-up with a little noise, plus the requested faults.
    static func scans(count: Int, start: Int64, faults: Faults) -> [[UInt8]] {
        let device = imu
        return (0..<count).map { i in
            var time = start + Int64(i) * period
            if let gap = faults.gapSeconds, i > 150 { time += Int64(gap * 1e9) }
            let noise = Int64([0, 1, -1, 2, -2, 1, 0, -1][i % 8])
            var x = 3 + noise
            if faults.clippedAccelerometerX && i % 10 == 5 { x = 32767 }
            let y = faults.stuckAccelerometerY ? 5 : -2 - noise
            return device.scan([
                "accel_x": [x], "accel_y": [y], "accel_z": [4096 + noise],
                "anglvel_x": [noise], "anglvel_y": [-noise], "anglvel_z": [noise / 2],
                "timestamp": [time],
            ])
        }
    }

    /// Records everything and writes the run directory.
    static func make(_ faults: Faults) async throws -> RecordedRun {
        let scratch = try ScratchDirectory()
        let run = scratch.url.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)

        // Motion: 3 s from the emulated IMU, its timestamps on this machine's boottime clock.
        var testbed = UmockdevTestbed()
        let start = boottimeNanoseconds() + 300_000_000
        testbed.add(imu, scans: scans(count: 520, start: start, faults: faults), scansPerChunk: 4, delay: 38)
        let motionPath = run.appendingPathComponent("motion.json").path
        let recorded = try await testbed.run(
            "\"$CTL\" record --iio-uri local: --types \(faults.fusedAndTaskCopy ? "accelerometer,gyro,attitude,userAcceleration" : "accelerometer,gyro") --frequency 100 --duration \(seconds) --step-path Walk/walk --output \(motionPath)")
        guard recorded.status == 0, let motionResult = UmockdevTestbed.lastJSONObject(in: recorded.stdout) else {
            throw RecordingError("activetaskctl record failed: \(recorded.stderr)")
        }

        // Audio through ALSA file PCMs (not paced: the wall span is set from the motion's below).
        var audioResults: [[String: Any]] = []
        let microphones: [(String, [Int16])] = [
            ("microphone", faults.silentMicrophone ? [Int16](repeating: 0, count: 16_000 * 4) : sine(amplitude: 0.25)),
        ] + (faults.clippedMicrophone ? [("voice", sine(amplitude: 2.5))] : [])
        for (name, samples) in microphones {
            let input = scratch.url.appendingPathComponent("\(name).raw")
            try Data(samples.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }).write(to: input)
            let output = try await CommandRunner.run([
                "record-audio", "--capture-device", "test_cap:FILE=\(input.path)", "--duration", "\(seconds)",
                "--output", run.appendingPathComponent("\(name).wav").path, "--unpaced",
            ])
            guard output.status == 0, let results = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]] else {
                throw RecordingError("activetaskctl record-audio failed: \(output.standardError)")
            }
            audioResults += results
        }

        // The task result as the session writes it; audio spans the motion recording's wall time.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let motionStart = formatter.date(from: motionResult["startDate"] as! String)!
        let motionEnd = formatter.date(from: motionResult["endDate"] as! String)!
        let startUptime = motionResult["startUptime"] as! Double
        for index in audioResults.indices {
            audioResults[index]["startDate"] = formatter.string(from: motionStart)
            audioResults[index]["endDate"] = formatter.string(from: motionStart.addingTimeInterval(seconds))
            audioResults[index]["startUptime"] = startUptime
        }
        // The microphones ran one after another here; put their levels on the motion's clock,
        // as if they had run alongside it.
        for (name, _) in microphones {
            let levels = run.appendingPathComponent("\(name)_levels.json")
            var records = try JSONSerialization.jsonObject(with: Data(contentsOf: levels)) as! [[String: Any]]
            for index in records.indices { records[index]["uptime"] = startUptime + (records[index]["timestamp"] as! Double) }
            try JSONSerialization.data(withJSONObject: records).write(to: levels)
        }
        if faults.fusedAndTaskCopy {
            let copy: [String: Any] = [
                "identifier": "Walk", "type": "assessment",
                "asyncActions": [["identifier": "motion", "type": "motion", "frequency": 100]],
                "steps": [
                    ["identifier": "instruction", "type": "instruction"],
                    ["identifier": "Walk", "type": "section", "steps": [["identifier": "walk", "type": "active", "duration": seconds]]],
                    ["identifier": "completion", "type": "completion"],
                ],
            ]
            try JSONSerialization.data(withJSONObject: copy, options: [.prettyPrinted]).write(to: run.appendingPathComponent("task.json"))
        }
        var asyncResults: [[String: Any]] = [motionResult] + audioResults
        if faults.controllerFailure {
            asyncResults.append([
                "type": "error", "identifier": "distance_error", "startDate": formatter.string(from: motionStart),
                "endDate": formatter.string(from: motionEnd), "errorDescription": "The location service stopped answering; check the GPS receiver.",
                "errorDomain": "AsyncActionError", "errorCode": 3,
            ])
        }
        let task: [String: Any] = [
            "type": "task", "identifier": "Walk", "taskRunUUID": UUID().uuidString,
            "startDate": formatter.string(from: motionStart.addingTimeInterval(-1)),
            "endDate": formatter.string(from: motionEnd.addingTimeInterval(0.5)),
            "stepHistory": [
                ["type": "base", "identifier": "instruction", "startDate": formatter.string(from: motionStart.addingTimeInterval(-1)),
                 "endDate": formatter.string(from: motionStart)],
                ["type": "section", "identifier": "Walk", "startDate": formatter.string(from: motionStart), "endDate": formatter.string(from: motionEnd),
                 "stepHistory": [["type": "base", "identifier": "walk", "startDate": formatter.string(from: motionStart),
                                  "endDate": formatter.string(from: motionEnd)]]],
                ["type": "base", "identifier": "completion", "startDate": formatter.string(from: motionEnd),
                 "endDate": formatter.string(from: motionEnd.addingTimeInterval(0.5))],
            ],
            "asyncResults": asyncResults,
        ]
        try JSONSerialization.data(withJSONObject: task, options: [.prettyPrinted, .sortedKeys]).write(to: run.appendingPathComponent("taskResult.json"))
        let metadata: [String: Any] = [
            "taskIdentifier": "Walk", "deviceInfo": "test board", "appName": "activetask", "appVersion": "test",
            "taskRunUUID": task["taskRunUUID"]!, "startDate": task["startDate"]!, "endDate": task["endDate"]!,
        ]
        try JSONSerialization.data(withJSONObject: metadata, options: [.prettyPrinted, .sortedKeys]).write(to: run.appendingPathComponent("metadata.json"))
        let prompts: [[String: Any]] = [
            ["stepPath": "Walk/walk", "text": "Start walking.", "scheduledUptime": startUptime + 0.2, "spokenUptime": startUptime + 0.21],
            ["stepPath": "Walk/walk", "text": "Halfway there.", "scheduledUptime": startUptime + 1.5, "spokenUptime": startUptime + 1.5 + faults.promptLateness],
        ]
        try JSONSerialization.data(withJSONObject: prompts, options: [.prettyPrinted]).write(to: run.appendingPathComponent("prompts.json"))
        return RecordedRun(directory: run)
    }

    /// 4 s of a 440 Hz sine at `amplitude` of full scale, clipped to the 16-bit range.
    static func sine(amplitude: Double) -> [Int16] {
        (0..<(16_000 * 4)).map { index in
            let value = amplitude * 32767 * sin(2 * .pi * 440 * Double(index) / 16_000)
            return Int16(max(-32768, min(32767, value.rounded())))
        }
    }

    /// The ALSA configuration the children inherit: the package's one test configuration
    /// (every test target runs in one process, so there is one), where `test_cap:FILE=…`
    /// captures a raw file.
    static let alsaConfiguration: Void = { _ = AudioTestEnvironment.directory }()
}

struct RecordingError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
