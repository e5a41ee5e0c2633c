import Foundation
import Glibc
import Testing
import TestSupport
import ZIPFoundation

/// SageResearch's own navigation tests as data, replayed over the socket against the real
/// daemon: TaskControllerTests `testNavigation_*` around the sections of its test tree (where a
/// section's result enters the history, back and forward across sections) and StepControllerTests
/// `testProgress_MarkersAndSections_*` (progress inside sections falls back to the task's
/// markers), plus abandon and the result-ready event (docs/session.md).
@Suite("activetaskd: SageResearch's navigation tests as scenarios over the socket")
struct SageTaskControllerScenarioTests {
    /// The tree of TaskControllerTests and StepControllerTests.
    static let tree = SageTestTrees.taskController

    enum Command: Sendable {
        case forward
        /// `run.forward` with a `skipToIdentifier`.
        case forwardSkipping(to: String)
        case back
        case abandon

        var method: String {
            switch self {
            case .forward, .forwardSkipping: "run.forward"
            case .back: "run.back"
            case .abandon: "run.abandon"
            }
        }

        var params: [String: Any]? {
            if case .forwardSkipping(let target) = self { return ["skipToIdentifier": target] }
            return nil
        }
    }

    /// What must hold after a command (nil: not checked).
    struct Expect: Sendable {
        /// The step shown (`stepShown` and `run.status`), relative to the task: `step5/stepX`.
        var step: String?
        var direction: String?
        /// `"4/7"`, `"2/4~"` (estimated) or `"none"`.
        var progress: String?
        var hasStepBefore: Bool?
        var hasStepAfter: Bool?
        /// The identifiers of the task result's top `stepHistory` (`run.result` of the live run).
        var topHistory: [String]?
        /// The section around the step shown and its own `stepHistory` (Sage's
        /// `currentNode.parent` and `nodePathHistory`): the innermost of `run.result`'s
        /// `openSections`, not yet in the top history while it is open.
        var sectionHistory: (section: String, steps: [String])?
        /// A section's result in the top history (its last entry of that identifier) and its
        /// own `stepHistory`.
        var topSection: (section: String, steps: [String])?
        /// The identifier of `stepShown.previousResult`, or `"none"`.
        var previousResult: String?
        /// `taskResultReady` arrives, for this step path (`""`: as the run ends).
        var resultReady: String?
        /// The run finishes for this reason; the written result is checked with `finished`.
        var finishReason: String?
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        /// Forward from the first step until this step shows (Sage's `test_stepTo`).
        var stepTo: String
        var atStart: Expect = Expect()
        var moves: [(Command, Expect)] = []
        var testDescription: String { name }
    }

    static let history4 = ["introduction", "step1", "step2", "step3", "step4"]

    static let scenarios: [Scenario] = [
        // Sage's section cases assert the history of the section around the step shown; a
        // section's result enters the top history only as it is left forward (docs/runs.md).
        Scenario(name: "testNavigation_BackFrom5X", stepTo: "step5/stepX",
                 atStart: Expect(progress: "5/7", hasStepBefore: true, hasStepAfter: true, topHistory: history4,
                                 sectionHistory: ("step5", ["stepX"]), topSection: ("step4", ["stepA", "stepB", "stepC"])),
                 moves: [(.back, Expect(step: "step4/stepC", direction: "backward", progress: "4/7", topHistory: history4,
                                        sectionHistory: ("step4", ["stepA", "stepB", "stepC"]), previousResult: "stepC"))]),
        // Going back keeps the section's history: stepY shown again follows stepZ.
        Scenario(name: "testNavigation_BackFrom5Z", stepTo: "step5/stepZ",
                 moves: [(.back, Expect(step: "step5/stepY", direction: "backward", progress: "5/7", topHistory: history4,
                                        sectionHistory: ("step5", ["stepX", "stepY", "stepZ", "stepY"]), previousResult: "stepY"))]),
        Scenario(name: "testNavigation_BackFrom3", stepTo: "step3",
                 atStart: Expect(topHistory: ["introduction", "step1", "step2", "step3"], previousResult: "none"),
                 moves: [(.back, Expect(step: "step2", direction: "backward", progress: "2/7",
                                        topHistory: ["introduction", "step1", "step2", "step3", "step2"], previousResult: "step2"))]),
        Scenario(name: "testNavigation_ForwardFrom5X", stepTo: "step5/stepX",
                 moves: [(.forward, Expect(step: "step5/stepY", direction: "forward", progress: "5/7", topHistory: history4,
                                           sectionHistory: ("step5", ["stepX", "stepY"])))]),
        Scenario(name: "testNavigation_ForwardFrom5Z", stepTo: "step5/stepZ",
                 moves: [(.forward, Expect(step: "step6/stepA", direction: "forward", progress: "6/7",
                                           topHistory: history4 + ["step5"], sectionHistory: ("step6", ["stepA"]),
                                           topSection: ("step5", ["stepX", "stepY", "stepZ"])))]),
        Scenario(name: "testNavigation_ForwardFrom2", stepTo: "step2",
                 moves: [(.forward, Expect(step: "step3", direction: "forward", progress: "3/7",
                                           topHistory: ["introduction", "step1", "step2", "step3"]))]),
        // A forward jump out of a section back to an earlier step leaves the section forward: its
        // result enters the history (Sage's section path completes before the parent moves on).
        Scenario(name: "skipToIdentifier from step5/stepY back to step3", stepTo: "step5/stepY",
                 moves: [(.forwardSkipping(to: "step3"), Expect(step: "step3", progress: "3/7",
                                                                  topHistory: history4 + ["step5", "step3"],
                                                                  topSection: ("step5", ["stepX", "stepY"])))]),
        // A forward jump back to a visited section (step7's nextStepIdentifier is step5 in
        // testJumpBackward_From7To5X) starts a new result for it; the old one stays where it was.
        Scenario(name: "testJumpBackward_From7To5X", stepTo: "step7",
                 moves: [(.forwardSkipping(to: "step5"), Expect(step: "step5/stepX", direction: "backward",
                                                                  topHistory: history4 + ["step5", "step6", "step7"],
                                                                  sectionHistory: ("step5", ["stepX"]),
                                                                  topSection: ("step5", ["stepX", "stepY", "stepZ"])))]),
        Scenario(name: "testProgress_MarkersAndSections_Introduction", stepTo: "introduction",
                 atStart: Expect(progress: "none", hasStepBefore: false, hasStepAfter: true)),
        Scenario(name: "testProgress_MarkersAndSections_Step2", stepTo: "step2", atStart: Expect(progress: "2/7")),
        Scenario(name: "testProgress_MarkersAndSections_Step4B", stepTo: "step4/stepB", atStart: Expect(progress: "4/7")),
        Scenario(name: "testProgress_MarkersAndSections_Step6C", stepTo: "step6/stepC", atStart: Expect(progress: "6/7")),
        Scenario(name: "testProgress_MarkersAndSections_Step7", stepTo: "step7", atStart: Expect(progress: "7/7")),
        // The last completion step: no step after it, and the result is ready as it shows.
        Scenario(name: "completion: hasStepAfter false and taskResultReady", stepTo: "step7",
                 moves: [(.forward, Expect(step: "completion", progress: "none", hasStepBefore: true, hasStepAfter: false,
                                           resultReady: "test/completion")),
                         (.forward, Expect(finishReason: "completed"))]),
        // RSDTaskViewModel._abandonAssessment: the answer goes into the lowest path (the section).
        Scenario(name: "testAbandonTaskNavigation", stepTo: "step5/stepY",
                 moves: [(.abandon, Expect(resultReady: "", finishReason: "abandoned"))]),
    ]

    @Test("Every scenario on one daemon")
    func scenariosOverTheSocket() async throws {
        let fixture = try await DaemonFixture("sagenav")
        let daemon = try await fixture.start()
        let socket = fixture.socket
        let failures = try await offThread { () throws -> [String] in
            var failures: [String] = []
            for scenario in Self.scenarios {
                do {
                    try Self.play(scenario, socket: socket)
                } catch {
                    failures.append("\(scenario.name): \(error)")
                    // A scenario that failed midway leaves its run: discard it for the next one.
                    let cleanup = try LineClient(path: socket)
                    if ["running", "paused", "waitingForPermission"].contains(try cleanup.result("run.status")["state"] as? String ?? "") {
                        _ = try? cleanup.call("run.cancel", ["save": false])
                        Thread.sleep(forTimeInterval: 1)
                    }
                }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\n--- daemon:\n\(daemon.output.suffix(3000))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(3000))")
    }

    static func play(_ scenario: Scenario, socket: String) throws {
        let client = try LineClient(path: socket, timeout: 20)
        _ = try client.result("events.subscribe", ["kinds": ["stepShown", "taskResultReady", "taskFinished"]])
        _ = try client.result("task.load", ["task": try JSONSerialization.jsonObject(with: Data(tree.utf8))])
        _ = try client.result("run.start")
        var shown = try client.waitForEvent("stepShown")
        while shown["stepPath"] as? String != "test/\(scenario.stepTo)" {
            _ = try client.result("run.forward", ["stepPath": shown["stepPath"] as? String ?? ""])
            shown = try client.waitForEvent("stepShown")
        }
        let uuid = try client.result("run.status")["taskRunUUID"] as? String ?? ""
        try check(scenario.atStart, shown: shown, client: client, uuid: uuid, after: "stepTo \(scenario.stepTo)")
        for (command, expect) in scenario.moves {
            _ = try client.result(command.method, command.params)
            var event: [String: Any] = [:]
            if expect.step != nil { event = try client.waitForEvent("stepShown") }
            try check(expect, shown: event, client: client, uuid: uuid, after: command.method)
        }
        if (try client.result("run.status")["state"] as? String) != "finished" {
            _ = try client.result("run.cancel", ["save": false])
            _ = try client.waitForEvent("taskFinished")
        }
    }

    static func check(_ expect: Expect, shown: [String: Any], client: LineClient, uuid: String, after: String) throws {
        func fail(_ what: String) -> DaemonTestFailure { DaemonTestFailure("after \(after): \(what)") }
        if let step = expect.step, shown["stepPath"] as? String != "test/\(step)" {
            throw fail("stepShown \(shown["stepPath"] ?? "none"), expected test/\(step)")
        }
        if let direction = expect.direction, shown["direction"] as? String != direction {
            throw fail("direction \(shown["direction"] ?? "none"), expected \(direction)")
        }
        if let progress = expect.progress {
            let value = shown["progress"] as? [String: Any]
            let text = value.map { "\($0["current"] ?? "?")/\($0["total"] ?? "?")\(($0["isEstimated"] as? Bool) == true ? "~" : "")" } ?? "none"
            if text != progress { throw fail("progress \(text), expected \(progress)") }
        }
        let status = try client.result("run.status")
        let statusStep = status["step"] as? [String: Any]
        for (key, value) in [("hasStepBefore", expect.hasStepBefore), ("hasStepAfter", expect.hasStepAfter)] {
            guard let value else { continue }
            if shown[key] as? Bool != value { throw fail("stepShown.\(key) \(shown[key] ?? "absent"), expected \(value)") }
            if statusStep?[key] as? Bool != value { throw fail("run.status step.\(key) \(statusStep?[key] ?? "absent"), expected \(value)") }
        }
        if let previous = expect.previousResult {
            let identifier = (shown["previousResult"] as? [String: Any])?["identifier"] as? String ?? "none"
            if identifier != previous { throw fail("previousResult \(identifier), expected \(previous)") }
        }
        if expect.topHistory != nil || expect.sectionHistory != nil || expect.topSection != nil {
            let answer = try client.result("run.result", ["taskRunUUID": uuid])
            let top = (answer["taskResult"] as? [String: Any])?["stepHistory"] as? [[String: Any]] ?? []
            func ids(_ results: [[String: Any]]) -> [String] { results.compactMap { $0["identifier"] as? String } }
            if let expected = expect.topHistory, ids(top) != expected { throw fail("top stepHistory \(ids(top)), expected \(expected)") }
            if let expected = expect.sectionHistory {
                let open = (answer["openSections"] as? [[String: Any]] ?? []).last
                let found = (open?["identifier"] as? String ?? "none", ids(open?["stepHistory"] as? [[String: Any]] ?? []))
                if found != expected { throw fail("open section \(found), expected \(expected)") }
            }
            if let expected = expect.topSection {
                let section = top.last { $0["identifier"] as? String == expected.section }
                let found = ids(section?["stepHistory"] as? [[String: Any]] ?? [])
                if section == nil || found != expected.steps { throw fail("\(expected.section) in the top history: \(section == nil ? "none" : "\(found)"), expected \(expected.steps)") }
            }
        }
        if let ready = expect.resultReady {
            let event = try client.waitForEvent("taskResultReady")
            if (event["stepPath"] as? String ?? "") != ready { throw fail("taskResultReady at \(event["stepPath"] ?? "the end"), expected \(ready)") }
            if event["taskRunUUID"] as? String != uuid { throw fail("taskResultReady for \(event["taskRunUUID"] ?? "?")") }
        }
        if let reason = expect.finishReason {
            let finished = try client.waitForEvent("taskFinished")
            if finished["reason"] as? String != reason { throw fail("finished \(finished["reason"] ?? "?"), expected \(reason)") }
            let directory = URL(fileURLWithPath: finished["runDirectory"] as? String ?? "")
            let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
            if reason == "abandoned" {
                // The partial section holds Sage's abandonAssessment answer (it is kept: docs/runs.md).
                let top = result["stepHistory"] as? [[String: Any]] ?? []
                let section = top.last { $0["identifier"] as? String == "step5" }
                let abandon = (section?["asyncResults"] as? [[String: Any]] ?? []).first { $0["identifier"] as? String == "abandonAssessment" }
                if abandon?["value"] as? Bool != true || (abandon?["answerType"] as? [String: Any])?["type"] as? String != "boolean" {
                    throw fail("no abandonAssessment answer in step5's async results: \(top.map { $0["identifier"] ?? "?" })")
                }
            }
            try checkFileNames(directory, after: after)
        }
    }

    /// Every recorder file of the run follows MobilePassiveData's `FileUtility.filename`.
    static func checkFileNames(_ directory: URL, after: String) throws {
        let own: Set<String> = ["run", "task", "taskResult", "answers", "metadata", "prompts", "qc"]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let stem = (name as NSString).deletingPathExtension
            if own.contains(stem) || name.hasSuffix(".zip") { continue }
            guard ArchivedFileNames.followsFileUtility(stem) else {
                throw DaemonTestFailure("after \(after): the run file \(name) is not named as FileUtility.filename names files")
            }
        }
    }
}

/// The files the daemon archives are named as MobilePassiveData names them.
@Suite("activetaskd: archived recorder files are named by FileUtility.filename's rule")
struct ArchivedFileNameTests {
    @Test("A section's microphone levels file is filename(<section>_<identifier>_levels); every archived name follows the rule")
    func heartRateNames() async throws {
        let fixture = try await DaemonFixture("filenames")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.heartRate(), name: "heart")
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)\n\(daemon.output.suffix(3000))")
        let summary = try RunFiles.lastLine(of: run.standardOutput)
        #expect(summary["status"] as? String == "completed", "\(summary)")
        let archive = URL(fileURLWithPath: try #require(summary["archive"] as? String))
        let entries = try Archive(url: archive, accessMode: .read).map(\.path)
        #expect(Set(entries).isSuperset(of: ["heart_rate_microphoneRec.wav", "heart_rate_microphoneRec.json", "heart_rate_motion_record.json"]),
                "\(entries)")
        #expect(!entries.contains { $0.contains("_levels") }, "\(entries)")
        let own: Set<String> = ["taskResult", "answers", "metadata", "prompts"]
        for entry in entries where !own.contains((entry as NSString).deletingPathExtension) {
            #expect(ArchivedFileNames.followsFileUtility((entry as NSString).deletingPathExtension), "\(entry)")
        }
        // The levels file's result keeps the logger identifier without the section prefix.
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        let section = (result["stepHistory"] as? [[String: Any]] ?? []).first { $0["identifier"] as? String == "heart_rate" }
        let text = String(describing: section?["asyncResults"] ?? "none")
        #expect(text.contains("microphoneRecorder_levels") && text.contains("heart_rate_microphoneRec.json"), "\(text)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(3000))")
    }
}
