import Foundation
import Glibc
import Testing
import TestSupport

/// The IMU disappears while a task records motion and sound through the daemon: libiio's real
/// `local:` backend reads an emulated device (umockdev), whose sysfs directory the test removes
/// mid-recording. Only the motion controller fails, with an error result saying what to do;
/// the microphone and the run go on, the daemon stays up, and the next run works (sound recorded,
/// motion refused at once with a sentence naming the missing sensor).
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

    @Test("The IMU removed mid-recording fails only the motion controller; the sound, the run and the daemon go on; the next run records sound and says the sensor is missing")
    func sensorRemoved() async throws {
        let fixture = try await DaemonFixture("unplug")
        // Three seconds of data: an unplugged device stops sending (the kernel's read fails), and
        // its sysfs directory goes; umockdev cannot fail the node's reads, so the stream ends.
        let testbed = Self.testbed(seconds: 3)
        let daemon = try await fixture.start(["/usr/bin/umockdev-run"] + (try testbed.write()) + ["--"] + fixture.arguments(iioURI: "local:"))
        // umockdev-run is the child; the daemon, its child, names its pid and carries the testbed's root.
        let client = try LineClient(path: fixture.socket)
        let daemonPID = try #require(try client.result("daemon.info")["pid"] as? Int)
        // Killing umockdev-run would orphan the daemon: on any failure, end the daemon itself.
        // While umockdev-run runs it has not reaped the daemon, so the pid cannot be reused.
        defer { if daemon.ended == nil { kill(pid_t(daemonPID), SIGKILL) } }
        let environment = try String(contentsOfFile: "/proc/\(daemonPID)/environ", encoding: .utf8).split(separator: "\0")
        let root = try #require(environment.first { $0.hasPrefix("UMOCKDEV_DIR=") }?.dropFirst("UMOCKDEV_DIR=".count))
        let sysfs = URL(fileURLWithPath: "\(root)/sys\(Self.device.sysfsPath)")

        let file = try fixture.write(task: Self.task("Unplugged", walking: 8), name: "unplug")
        let watcher = try fixture.subscriber(to: ["motionProgress", "actionFailed", "taskFinished"])
        async let run = fixture.ctl("run", file, "--auto", "--json")
        do {
            _ = try await offThread { try watcher.waitForEvent("motionProgress", within: 20) { ($0["samplesWritten"] as? Int ?? 0) > 0 } }
        } catch {
            throw DaemonTestFailure("no motion was recorded (\(error)):\n\(daemon.output.suffix(6000))")
        }
        // Unplug: the device's sysfs directory goes away, in one step. A recursive removal, one
        // entry at a time while the daemon reacts, once failed inside scan_elements with EPERM
        // (CI, ThreadSanitizer; cause not pinned down). A rename out of the sysfs tree is one
        // atomic call, as an unplug is; the tree is deleted when the test ends.
        let unplugged = URL(fileURLWithPath: "\(root)/unplugged-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: sysfs, to: unplugged)
        defer { try? FileManager.default.removeItem(at: unplugged) }
        let failed: [String: Any]
        do {
            failed = try await offThread { try watcher.waitForEvent("actionFailed", within: 60) }
        } catch {
            throw DaemonTestFailure("the motion controller did not fail (\(error)):\n\(daemon.output.suffix(6000))")
        }
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
        let seconds = try Self.wavSeconds(sound)
        #expect(seconds > 6, "the microphone stopped with the motion sensor: \(seconds) s of sound")
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        let asyncResults = result["asyncResults"] as? [[String: Any]] ?? []
        #expect(asyncResults.contains { ($0["identifier"] as? String)?.hasPrefix("motion") == true && $0["type"] as? String == "error" },
                "\(asyncResults)")
        #expect(asyncResults.contains { $0["identifier"] as? String == "roomSound" }, "\(asyncResults)")
        #expect(try client.result("daemon.info")["session"] as? String == "finished")

        // The next run, the sensor still missing: it records sound, and motion fails at once
        // with an error result naming the missing sensor.
        let nextWatcher = try fixture.subscriber(to: ["actionFailed"])
        let next = try await fixture.ctl("run", try fixture.write(task: Self.task("StillUnplugged", walking: 2), name: "next"), "--auto", "--json")
        #expect(next.status == 0, "\(next.standardError)\n\(daemon.output.suffix(4000))")
        let nextSummary = try RunFiles.lastLine(of: next.standardOutput)
        #expect(nextSummary["status"] as? String == "completed", "\(nextSummary)")
        let nextDirectory = URL(fileURLWithPath: try #require(nextSummary["runDirectory"] as? String))
        #expect(RunFiles.isCompleteWAV(nextDirectory.appendingPathComponent("roomSound.wav")))
        let nextFailure = try await offThread { try nextWatcher.waitForEvent("actionFailed", within: 60) }
        #expect(nextFailure["identifier"] as? String == "motion", "\(nextFailure)")
        let nextMessage = nextFailure["message"] as? String ?? ""
        #expect(nextMessage.contains("cannot be opened") && nextMessage.contains("Check that the device exists"), "\(nextFailure)")

        kill(pid_t(daemonPID), SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
