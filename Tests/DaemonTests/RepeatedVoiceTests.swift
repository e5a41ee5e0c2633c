import Foundation
import Glibc
import Testing
import TestSupport

/// Voice in every run (docs/session.md, "Voice and quality"): one daemon shares one voice
/// prompter among all the runs of its life, and each run's session subscribes to its events on
/// its own. Once, the first session's end finished the prompter's only event stream, so from the
/// second run on nothing was announced and no prompts.json was written.
@Suite("activetaskd: every run of one daemon speaks and records its prompts")
struct RepeatedVoiceTests {
    /// An active step with three timed prompts and an `end` prompt that moves on by itself, and
    /// a completion step that speaks as it shows (the run ends then, with `--auto`).
    static let task = """
        {
            "identifier": "Voiced",
            "steps": [
                { "identifier": "walking", "type": "active", "duration": 4, "title": "Walk",
                  "commands": ["startTimerAutomatically", "transitionAutomatically"],
                  "spokenInstructions": { "start": "Walk now.", "1": "One.", "2": "Two.", "end": "Stop." } },
                { "identifier": "done", "type": "completion", "title": "Done", "spokenInstructions": { "start": "All done." } }
            ]
        }
        """

    /// What one run announced and recorded: the prompts' step paths and texts, in order.
    struct Heard: Equatable, CustomStringConvertible {
        var events: [String]
        var file: [String]
        /// The `promptFinished` events, and those that came without their `promptSpoken` or
        /// not after it.
        var finished: [String] = []
        var unpaired: [String] = []
        var description: String { "promptSpoken \(events), prompts.json \(file), promptFinished \(finished), unpaired \(unpaired)" }
    }

    /// With `voice.holdStream` (the default) the playback device is held open from the task's
    /// load and each run's start to its end (docs/audio.md): every run still speaks every
    /// prompt, and the hold is released and taken again between runs. Without it, as before.
    @Test("The same task run several times on one daemon speaks, announces and records the same prompts every time",
          arguments: [(holdStream: true, runs: 5), (holdStream: false, runs: 2)])
    func repeatedRuns(holdStream: Bool, runs count: Int) async throws {
        let fixture = try await DaemonFixture("voice\(count)")
        let config = try fixture.write(task: #"{"voice": {"holdStream": \#(holdStream)}}"#, name: "config")
        let daemon = try await fixture.start(fixture.arguments() + ["--config", config])
        let path = try fixture.write(task: Self.task, name: "voiced")
        let socket = fixture.socket
        var runs: [Heard] = []
        for index in 1...count {
            let subscriber = try await offThread { () throws -> LineClient in
                let client = try LineClient(path: socket, timeout: 30)
                _ = try client.result("events.subscribe", ["kinds": ["promptSpoken", "promptFinished", "taskFinished"]])
                return client
            }
            async let run = fixture.ctl("run", path, "--auto", "--json")
            let announced = try await offThread { () throws -> Heard in
                var heard = Heard(events: [], file: [])
                var spokenAt: [String: Double] = [:]
                while true {
                    let message = try subscriber.readMessage()
                    guard message["method"] as? String == "event", let event = message["params"] as? [String: Any] else { continue }
                    let prompt = "\(event["stepPath"] as? String ?? "?") \(event["text"] as? String ?? "?")"
                    switch event["kind"] as? String {
                    case "taskFinished": return heard
                    case "promptSpoken":
                        heard.events.append(prompt)
                        spokenAt[prompt] = event["spokenUptime"] as? Double
                    case "promptFinished":
                        heard.finished.append(prompt)
                        if let onset = spokenAt[prompt], let end = event["finishedUptime"] as? Double, end > onset {} else { heard.unpaired.append(prompt) }
                    default: break
                    }
                }
            }
            let output = try await run
            #expect(output.status == 0, "run \(index): \(output.standardError)\n\(daemon.output.suffix(4000))")
            let summary = try RunFiles.lastLine(of: output.standardOutput)
            let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
            let promptsFile = directory.appendingPathComponent("prompts.json")
            let records = FileManager.default.fileExists(atPath: promptsFile.path)
                ? try #require(try RunFiles.json(promptsFile) as? [[String: Any]], "run \(index): prompts.json is not an array")
                : []
            let recorded = records.map { "\($0["stepPath"] as? String ?? "?") \($0["text"] as? String ?? "?")" }
            // Every entry says how its onset was measured, and that it ended after it began: the
            // run's files are written once its last prompt has been heard.
            let measures: Set<String> = ["deviceDelay", "deviceDelayFirstReport", "deviceDelayLaterReport", "handedToDevice"]
            for record in records {
                #expect((record["heardBy"] as? String).map(measures.contains) == true, "run \(index): \(record)")
                let end = record["endUptime"] as? Double
                #expect(end != nil && end! > (record["spokenUptime"] as? Double ?? .infinity), "run \(index): \(record)")
            }
            var heard = announced
            heard.file = recorded
            runs.append(heard)
        }
        let expected = ["Voiced/walking Walk now.", "Voiced/walking One.", "Voiced/walking Two.", "Voiced/walking Stop.", "Voiced/done All done."]
        for (index, heard) in runs.enumerated() {
            #expect(heard.events == expected, "run \(index + 1): \(heard)\n\(daemon.output.suffix(4000))")
            #expect(heard.file == expected, "run \(index + 1): \(heard)")
            // Each prompt's end follows its onset, in the same order, the completion step's
            // included: nothing is still playing when the run ends.
            #expect(heard.finished == expected, "run \(index + 1): \(heard)")
            #expect(heard.unpaired.isEmpty, "run \(index + 1): \(heard)")
        }
        #expect(daemon.ended == nil, "activetaskd ended:\n\(daemon.output.suffix(4000))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
