import Foundation
import Glibc
import Testing
import TestSupport

/// The IMU disappears while a task records motion and sound through the daemon: libiio's real
/// `local:` backend reads an emulated device (umockdev), whose sysfs directory the test removes
/// mid-recording. Only the motion controller fails, with an error result saying what to do;
/// the microphone and the run go on, the daemon stays up, and the next run works.
@Suite("activetaskd: a sensor removed mid-recording", .enabled(if: UmockdevTestbed.isAvailable))
struct SensorRemovedTests {
    /// An accelerometer at 100 Hz (three le:s16 channels, no timestamp channel: times are
    /// derived from the reads).
    static let device = EmulatedIIODevice(
        number: 0, name: "accel3", attributes: [("sampling_frequency", "100"), ("in_accel_scale", "0.0023942")],
        channels: [.init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
                   .init(id: "accel_z", index: 2, type: "le:s16/16>>0")])

    /// `seconds` of scans, five every 50 ms.
    static func testbed(seconds: Int) -> UmockdevTestbed {
        var testbed = UmockdevTestbed()
        let scans = (0..<seconds * 100).map { i in
            device.scan(["accel_x": [Int64(100 + i % 50)], "accel_y": [-200], "accel_z": [4096 - Int64(i % 7)]])
        }
        testbed.add(device, scans: scans, scansPerChunk: 5, delay: 50)
        return testbed
    }

    /// Motion (accelerometer, 100 Hz) and the microphone over a `walking`-second active step
    /// that moves on by itself, then a completion step.
    static func task(_ identifier: String, walking: Int) -> String {
        """
        {
            "identifier": "\(identifier)",
            "asyncActions": [
                { "identifier": "motion", "type": "motion", "startStepIdentifier": "walking", "stopStepIdentifier": "walking",
                  "recorderTypes": ["accelerometer"], "frequency": 100 },
                { "identifier": "roomSound", "type": "microphone", "saveAudioFile": true,
                  "startStepIdentifier": "walking", "stopStepIdentifier": "walking" }
            ],
            "steps": [
                { "identifier": "walking", "type": "active", "duration": \(walking), "commands": ["transitionAutomatically"] },
                { "identifier": "done", "type": "completion", "title": "Done" }
            ]
        }
        """
    }

    /// Seconds of sound in a whole WAV file (PCM: the data chunk after a 44-byte header).
    static func wavSeconds(_ url: URL) throws -> Double {
        let data = try Data(contentsOf: url)
        func word(_ offset: Int, _ count: Int) -> Int { data[offset..<offset + count].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) } }
        let bytesPerSecond = word(28, 4)
        return Double(data.count - 44) / Double(max(bytesPerSecond, 1))
    }

    @Test("The IMU removed mid-recording fails only the motion controller; the sound, the run and the daemon go on; the next run works")
    func sensorRemoved() async throws {
        let fixture = try DaemonFixture("unplug")
        let testbed = Self.testbed(seconds: 60)
        let daemon = try await fixture.start(["/usr/bin/umockdev-run"] + (try testbed.write()) + ["--"] + fixture.arguments(iioURI: "local:"))
        // umockdev-run is the child; the daemon, its child, names its pid and carries the testbed's root.
        let client = try LineClient(path: fixture.socket)
        let daemonPID = try #require(try client.result("daemon.info")["pid"] as? Int)
        let environment = try String(contentsOfFile: "/proc/\(daemonPID)/environ", encoding: .utf8).split(separator: "\0")
        let root = try #require(environment.first { $0.hasPrefix("UMOCKDEV_DIR=") }?.dropFirst("UMOCKDEV_DIR=".count))
        let sysfs = URL(fileURLWithPath: "\(root)/sys\(Self.device.sysfsPath)")
        let unplugged = fixture.directory.appendingPathComponent("unplugged")

        let file = try fixture.write(task: Self.task("Unplugged", walking: 5), name: "unplug")
        let watcher = try fixture.subscriber(to: ["motionProgress", "actionFailed", "taskFinished"])
        async let run = fixture.ctl("run", file, "--auto", "--json")
        _ = try await offThread { try watcher.waitForEvent("motionProgress", within: 20) { ($0["samplesWritten"] as? Int ?? 0) > 0 } }
        try await Task.sleep(for: .seconds(1))
        // Unplug: the device's sysfs directory goes away (kept aside to plug it back in later).
        try FileManager.default.moveItem(at: sysfs, to: unplugged)
        let failed = try await offThread { try watcher.waitForEvent("actionFailed", within: 15) }
        #expect(failed["identifier"] as? String == "motion", "\(failed)")
        let message = failed["message"] as? String ?? ""
        #expect(message.contains("disappeared") && message.contains("Reconnect it"), "\(failed)")

        let output = try await run
        #expect(output.status == 0, "\(output.standardError)\n\(daemon.output.suffix(4000))")
        let summary = try RunFiles.lastLine(of: output.standardOutput)
        #expect(summary["status"] as? String == "completed", "\(summary)")
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let motion = try RunFiles.Motion(directory.appendingPathComponent("motion.json"))
        #expect(motion.samples.count >= 80, "\(motion.samples.count) samples before the unplug")
        let sound = directory.appendingPathComponent("roomSound.wav")
        #expect(RunFiles.isCompleteWAV(sound))
        #expect(try Self.wavSeconds(sound) > 4, "the microphone stopped with the motion sensor: \(try Self.wavSeconds(sound)) s")
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        let asyncResults = result["asyncResults"] as? [[String: Any]] ?? []
        #expect(asyncResults.contains { ($0["identifier"] as? String)?.hasPrefix("motion") == true && $0["type"] as? String == "error" },
                "\(asyncResults)")
        #expect(asyncResults.contains { $0["identifier"] as? String == "roomSound" }, "\(asyncResults)")
        #expect(try client.result("daemon.info")["session"] as? String == "finished")

        // Plugged back in: the next run records motion again.
        try FileManager.default.moveItem(at: unplugged, to: sysfs)
        let next = try await fixture.ctl("run", try fixture.write(task: Self.task("Replugged", walking: 1), name: "replug"), "--auto", "--json")
        #expect(next.status == 0, "\(next.standardError)\n\(daemon.output.suffix(4000))")
        let nextSummary = try RunFiles.lastLine(of: next.standardOutput)
        #expect(nextSummary["status"] as? String == "completed", "\(nextSummary)")
        let nextDirectory = URL(fileURLWithPath: try #require(nextSummary["runDirectory"] as? String))
        let nextMotion = try RunFiles.Motion(nextDirectory.appendingPathComponent("motion.json"))
        #expect(nextMotion.samples.count > 50, "\(nextMotion.samples.count) samples after plugging the sensor back in")

        kill(pid_t(daemonPID), SIGTERM)
        #expect(await daemon.waitForExit(within: 15) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
