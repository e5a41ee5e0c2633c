import Foundation
import Glibc
import Testing
import TestSupport
import ZIPFoundation

/// MotorControl's three hand tasks from the corpus, driven over the control socket of the real
/// daemon as a front end drives them (docs/task-format.md, "Hands"; docs/protocol.md, "Results
/// from the front end"): the hand selection decides the sections and the hand in every text and
/// prompt; the tapping step's result is archived as MotorControl names it. Timed steps are left
/// with run.forward once their start prompt is heard, so no run waits out its 30 s timers.
@Suite(
    "activetaskd: MotorControl's hand tasks over the socket",
    .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: hand task runs skipped."))
struct HandTaskTests {
    struct HandTask: Sendable, CustomTestStringConvertible {
        var file: String
        /// Step identifiers before the hand sections, and in each hand section.
        var before: [String]
        var section: [String]
        /// The step that names the first hand outside the sections, with the title expected for it (`%@` = hand).
        var firstHandStep: String?
        var firstHandTitle: String?
        /// The title of each section's first step (`%@` = hand); nil when it has none.
        var sectionTitle: String?
        /// The start prompt of the section's spoken step (`%@` = hand).
        var startPrompt: String
        var tapping: Bool
        var testDescription: String { (file as NSString).lastPathComponent }
    }

    static let tasks = [
        HandTask(file: Fixtures.motorControl + "Tremor.json",
                 before: ["introduction", "handSelection", "holdPhoneInstructions", "sitDownInstruction"],
                 section: ["instruction", "tremor"], firstHandStep: nil, firstHandTitle: nil,
                 sectionTitle: "Hold the phone with your %@ hand",
                 startPrompt: "With your %@ hand in your lap, keep holding your phone with the screen facing up for 30 seconds.", tapping: false),
        HandTask(file: Fixtures.motorControl + "Kinetic_Tremor.json",
                 before: ["introduction", "eachHandInstructions", "handSelection", "sitDownInstruction", "holdPhoneInstructions", "howToTouchNoseInstructions"],
                 section: ["instruction", "countdown", "tremor"], firstHandStep: nil, firstHandTitle: nil,
                 sectionTitle: "Hold the phone with your %@ hand while pointing your index finger out.",
                 startPrompt: "Touch your nose with your %@ index finger", tapping: false),
        HandTask(file: Fixtures.motorControl + "Finger_Tapping.json",
                 before: ["introduction", "fingerTappingInstructions", "handSelection", "phoneOnTableInstruction", "tappingFirstHandInstruction"],
                 section: ["tapping"], firstHandStep: "tappingFirstHandInstruction", firstHandTitle: "First, tap with your %@ hand",
                 sectionTitle: nil, startPrompt: "Tap the buttons with your %@ hand", tapping: true),
    ]

    /// The daemon as installed: MotorControl's tapping step is an active step out of the box
    /// (its timer started by the front end at the first tap, its section's motion recorded over
    /// it; docs/task-format.md, "Type registry and aliases").
    static func start(_ fixture: DaemonFixture) async throws -> DaemonProcess {
        try await fixture.start()
    }

    static let cases: [(HandTask, String)] = tasks.flatMap { task in ["left", "right", "both"].map { (task, $0) } }

    @Test("A hand task runs its hand sections in the recorded order and names the hand everywhere", arguments: cases)
    func handTask(_ task: HandTask, hand: String) async throws {
        let fixture = try await DaemonFixture("hands-\(hand)")
        let daemon = try await Self.start(fixture)
        let socket = fixture.socket, file = Fixtures.path(task.file)
        let run = try await offThread { try HandDriver(socket: socket).run(file, hand: hand, tapping: task.tapping) }

        // The order recorded in the handSelection collection decides the sections.
        let result = try RunFiles.object(run.runDirectory.appendingPathComponent("taskResult.json"))
        let history = result["stepHistory"] as? [[String: Any]] ?? []
        let selection = try #require(history.first { $0["identifier"] as? String == "handSelection" })
        #expect(selection["type"] as? String == "collection")
        let children = selection["children"] as? [[String: Any]] ?? []
        #expect(children.map { $0["identifier"] as? String } == ["handSelection", "handOrder"])
        #expect(children.first?["value"] as? String == hand)
        let order = try #require(children.last?["value"] as? [String])
        switch hand {
        case "both": #expect(order == ["left", "right"] || order == ["right", "left"])
        default: #expect(order == [hand])
        }
        let prefix = try #require(run.paths.first?.split(separator: "/").first.map(String.init))
        let expected = (task.before + order.flatMap { side in task.section.map { "\(side)/\($0)" } } + ["completion"]).map { "\(prefix)/\($0)" }
        #expect(run.paths == expected, "\(daemon.output.suffix(3000))")
        #expect(run.finishReason == "completed")

        // What a person sees: no placeholder; the hand's capitals where MotorControl puts them.
        for (path, texts) in run.texts {
            for text in texts { #expect(!text.contains("%@"), "\(path): \(text)") }
        }
        if let step = task.firstHandStep, let title = task.firstHandTitle {
            #expect(run.texts["\(prefix)/\(step)"]?.first == title.replacingOccurrences(of: "%@", with: order[0].uppercased()))
        }
        for side in order {
            let first = "\(prefix)/\(side)/\(task.section[0])"
            guard let sectionTitle = task.sectionTitle else { continue }
            #expect(run.texts[first]?.first == sectionTitle.replacingOccurrences(of: "%@", with: side.uppercased()), "\(run.texts[first] ?? [])")
        }

        // What a person hears (promptSpoken and prompts.json): the start prompt of each hand, in order.
        let starts = order.map { task.startPrompt.replacingOccurrences(of: "%@", with: $0.uppercased()) }
        #expect(run.heard.filter { starts.contains($0) } == starts, "\(run.heard)")
        #expect(!run.heard.contains { $0.contains("%@") || $0.contains("percent") }, "\(run.heard)")
        let promptsFile = try RunFiles.json(run.runDirectory.appendingPathComponent("prompts.json")) as? [[String: Any]] ?? []
        let written = promptsFile.compactMap { $0["text"] as? String }
        #expect(written.filter { starts.contains($0) } == starts, "\(written)")
        #expect(!written.contains { $0.contains("%@") })

        // The archive: a motion file per hand section run, the tapping results as MotorControl names them.
        let entries = try Archive(url: try #require(run.archive), accessMode: .read).map(\.path)
        #expect(entries.suffix(3) == ["answers.json", "taskResult.json", "metadata.json"], "\(entries)")
        let motion = entries.filter { $0.contains("motion") }
        #expect(motion.count == order.count, "\(entries)")
        for side in order { #expect(motion.contains { $0.hasPrefix(side) }, "\(entries)") }
        let tappingFiles = entries.filter { $0.hasSuffix("_tapping") }
        #expect(tappingFiles == (task.tapping ? order.map { "\($0)_tapping" } : []), "\(entries)")
        if task.tapping {
            let data = try #require(FileManager.default.contents(atPath: run.runDirectory.appendingPathComponent("\(order[0])_tapping").path))
            let tapping = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(tapping["type"] as? String == "tapping" && tapping["tapCount"] as? Int == 3)
            let samples = tapping["samples"] as? [[String: Any]] ?? []
            // On the recorder clock: the touch times follow the run's uptime, after the step showed.
            let uptimes = samples.compactMap { $0["uptime"] as? Double }
            #expect(uptimes.count == 4 && uptimes == uptimes.sorted())
            #expect(uptimes.first.map { abs($0 - (run.tappingShownUptime[order[0]] ?? 0)) < 30 } == true, "\(uptimes) \(run.tappingShownUptime)")
        }
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(3000))")
    }

    struct BadResult: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable (inout [String: Any]) -> Void
        var codingPath: String
        var testDescription: String { name }
    }

    static let badResults = [
        BadResult(name: "wrong type", change: { $0["type"] = "answer" }, codingPath: "result.type"),
        BadResult(name: "no type", change: { $0["type"] = nil }, codingPath: "result.type"),
        BadResult(name: "wrong identifier", change: { $0["identifier"] = "tremor" }, codingPath: "result.identifier"),
        BadResult(name: "no identifier", change: { $0["identifier"] = nil }, codingPath: "result.identifier"),
        BadResult(name: "NaN view size", change: { $0["viewSize"] = "{nan, 640.0}" }, codingPath: "result.viewSize"),
        BadResult(name: "empty view size", change: { $0["viewSize"] = "{0.0, 640.0}" }, codingPath: "result.viewSize"),
        BadResult(name: "malformed button frame", change: { $0["buttonRectLeft"] = "{60.0, 500.0}" }, codingPath: "result.buttonRectLeft"),
        BadResult(name: "infinite button frame", change: { $0["buttonRectRight"] = "{{inf, 500.0}, {40.0, 40.0}}" }, codingPath: "result.buttonRectRight"),
        BadResult(name: "too many samples", change: {
            let sample = ($0["samples"] as? [[String: Any]])?.first ?? [:]
            $0["samples"] = Array(repeating: sample, count: 3001)
        }, codingPath: "result.samples"),
        BadResult(name: "more taps than samples", change: { $0["tapCount"] = 40 }, codingPath: "result.tapCount"),
        BadResult(name: "a location of one number", change: {
            var samples = $0["samples"] as? [[String: Any]] ?? []
            samples[2]["location"] = [1.0]
            $0["samples"] = samples
        }, codingPath: "result.samples[2].location"),
    ]

    @Test("Every bad tapping result is refused with -32602 and its coding path; the step stays and the run goes on")
    func badResultsAreRefused() async throws {
        let fixture = try await DaemonFixture("hands-bad")
        let daemon = try await Self.start(fixture)
        let socket = fixture.socket, file = Fixtures.path(Self.tasks[2].file)
        let run = try await offThread {
            try HandDriver(socket: socket).run(file, hand: "left", tapping: true, beforeTapping: { client, stepPath in
                var refusals: [String] = []
                for bad in Self.badResults {
                    var result = HandDriver.tappingResult(stepPath: stepPath)
                    bad.change(&result)
                    let response = try client.call("run.forward", ["stepPath": stepPath, "result": result])
                    let error = response["error"] as? [String: Any]
                    let data = error?["data"] as? [String: Any]
                    guard error?["code"] as? Int == -32602, data?["codingPath"] as? String == bad.codingPath else {
                        throw DaemonTestFailure("\(bad.name): \(response)")
                    }
                    let status = try client.result("run.status")
                    guard (status["step"] as? [String: Any])?["stepPath"] as? String == stepPath else {
                        throw DaemonTestFailure("\(bad.name): the step left after a refusal: \(status)")
                    }
                    refusals.append(bad.name)
                }
                return refusals
            })
        }
        #expect(run.refusals == Self.badResults.map(\.name))
        #expect(run.finishReason == "completed")
        let entries = try Archive(url: try #require(run.archive), accessMode: .read).map(\.path)
        #expect(entries.contains("left_tapping"), "\(entries)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(3000))")
    }
}
