import Clocks
import Foundation
import Glibc
import SampleFiles
import SystemPackage
import Testing
import TestSupport

/// Prompts on time on a device that hears everything a quarter of a second after it is written
/// (docs/session.md, "A move"; docs/audio.md, "Voice prompts"): the daemon's playback PCM is
/// `DelayedPipeSink`'s pipe sink, whose reader says when each sound was really heard. A step's
/// `start` prompt cannot be heard before the device's delay has passed, so the session shows
/// the step at the moment its prompt is heard; timed prompts are placed by the measured delay.
@Suite("activetaskd: every prompt heard on time on a 250 ms device",
       .enabled(if: AudioTestEnvironment.hasPulse, "needs pulseaudio and libasound2-plugins"))
struct DelayedDeviceVoiceTests {
    /// Two timed steps that move on by themselves, each with a `start` and an `end` prompt, and a
    /// completion step that speaks as it shows. Every text has a tone clip of its own.
    static let task = """
        {
            "identifier": "OnTime",
            "steps": [
                { "identifier": "walking", "type": "active", "duration": 3, "title": "Walk",
                  "commands": ["startTimerAutomatically", "transitionAutomatically"],
                  "spokenInstructions": { "start": "alpha", "1": "bravo", "end": "charlie" } },
                { "identifier": "standing", "type": "active", "duration": 2, "title": "Stand",
                  "commands": ["startTimerAutomatically", "transitionAutomatically"],
                  "spokenInstructions": { "start": "delta", "end": "echo" } },
                { "identifier": "done", "type": "completion", "title": "Done", "spokenInstructions": { "start": "foxtrot" } }
            ]
        }
        """
    static let texts = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
    static let startPrompts: [String: String] = ["alpha": "OnTime/walking", "delta": "OnTime/standing", "foxtrot": "OnTime/done"]

    @Test("Start, timed and end prompts are heard within 50 ms of when they are due, and a start prompt as its step shows")
    func promptsOnTime() async throws {
        let sink = try await DelayedPipeSink.start(instance: .delayedDaemon)
        defer { sink.stop() }
        let fixture = try await DaemonFixture("delayedvoice")
        try fixture.addALSAConfiguration(sink.pcmDefinition(named: "delayed_play"))
        let clips = fixture.directory.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        for (index, text) in Self.texts.enumerated() {
            try Self.writeTone(frequency: 500 + 150 * Double(index), seconds: 0.3, to: clips.appendingPathComponent("\(text).wav"))
        }
        let config = try fixture.write(task: #"{"voice": {"holdStream": true, "clipDirectory": "\#(clips.path)"}}"#, name: "config")
        var arguments = fixture.arguments() + ["--config", config]
        arguments[arguments.firstIndex(of: "daemon_play")!] = "delayed_play"
        let daemon = try await fixture.start(arguments)
        let path = try fixture.write(task: Self.task, name: "ontime")
        let socket = fixture.socket
        let subscriber = try await offThread { () throws -> LineClient in
            let client = try LineClient(path: socket, timeout: 30)
            _ = try client.result("events.subscribe", ["kinds": ["stepShown", "taskFinished"]])
            return client
        }
        async let run = fixture.ctl("run", path, "--auto", "--json")
        let shown = try await offThread { () throws -> [String: Double] in
            var shown: [String: Double] = [:]
            while true {
                let message = try subscriber.readMessage()
                guard message["method"] as? String == "event", let event = message["params"] as? [String: Any] else { continue }
                if event["kind"] as? String == "taskFinished" { return shown }
                if let stepPath = event["stepPath"] as? String, let uptime = event["uptime"] as? Double { shown[stepPath] = uptime }
            }
        }
        let output = try await run
        #expect(output.status == 0, "\(output.standardError)\n\(daemon.output.suffix(4000))")
        // The last prompt reaches the reader a device delay after it was written.
        try await Task.sleep(for: .seconds(sink.delay + 0.3))
        #expect(sink.error == nil)
        let summary = try RunFiles.lastLine(of: output.standardOutput)
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let records = try #require(try RunFiles.json(directory.appendingPathComponent("prompts.json")) as? [[String: Any]])
        #expect(records.map { $0["text"] as? String ?? "?" } == Self.texts, "\(records)")
        let offset = RecordingClock.boottimeOffset()
        let onsets = sink.onsets
        for record in records {
            let text = record["text"] as? String ?? "?"
            let scheduled = try #require(record["scheduledUptime"] as? Double) - offset
            let heard = try #require(onsets.first { abs($0 - scheduled) < 0.5 }, "\(text) was not heard within 0.5 s of when it was due: \(record)")
            let shownLate = Self.startPrompts[text].flatMap { shown[$0] }.map { ($0 - offset - scheduled) * 1000 }
            let reported = ((record["spokenUptime"] as? Double ?? .nan) - offset - scheduled) * 1000
            print(String(format: "%@: heard %.1f ms after it was due (reported %.1f ms, %@)%@", text, (heard - scheduled) * 1000,
                         reported, record["heardBy"] as? String ?? "?",
                         shownLate.map { String(format: ", its step shown %.1f ms after it was due", $0) } ?? ""))
            // A step shown before its start prompt could be heard would leave it a device delay late.
            #expect(abs(heard - scheduled) < TestTiming.tolerance(0.05), "\(text): \(record)")
            if let stepPath = Self.startPrompts[text] {
                let shownAt = try #require(shown[stepPath], "no stepShown for \(stepPath)") - offset
                #expect(shownAt - scheduled > -0.001 && shownAt - scheduled < TestTiming.tolerance(0.05), "\(text): shown at \(shownAt), due \(scheduled)")
            }
        }
        #expect(daemon.ended == nil, "activetaskd ended:\n\(daemon.output.suffix(4000))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }

    /// A mono 16-bit 22050 Hz WAV of a sine tone at half scale.
    static func writeTone(frequency: Double, seconds: Double, to url: URL) throws {
        let rate = 22_050
        let samples = (0..<Int(seconds * Double(rate))).map { Int16((0.5 * 32_767 * sin(2 * .pi * frequency * Double($0) / Double(rate))).rounded()) }
        let writer = try WAVFileWriter(path: FilePath(url.path), encoding: .integer, channels: 1, sampleRate: rate, bitsPerSample: 16)
        // WAV is little-endian, as every machine this runs on.
        try samples.withUnsafeBytes { try writer.append($0) }
        try writer.close()
    }
}
