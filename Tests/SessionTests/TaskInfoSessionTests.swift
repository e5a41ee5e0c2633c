import Foundation
import Session
import TaskModel
import TestSupport
import Testing

/// `taskInfo` steps run their task nested, with a nested `task` result (docs/session.md).
@Suite(
    "Nested tasks of taskInfo steps",
    .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: FactoryTest_TaskFoo is not there to nest."))
struct TaskInfoSessionTests {
    /// SageResearch's FactoryTest_TaskFoo from the task directory, then a task written inline
    /// that records motion, then a completion step.
    static let outer = """
    {
        "identifier": "Outer",
        "type": "assessment",
        "steps": [
            { "identifier": "intro", "type": "instruction", "title": "Two tasks in one" },
            { "identifier": "foo", "type": "taskInfo", "title": "Foo",
              "taskTransformer": { "resourceName": "FactoryTest_TaskFoo", "bundleIdentifier": "org.sagebase.ResearchTests" } },
            { "identifier": "inline", "type": "taskInfo", "title": "Hold still",
              "task": {
                  "identifier": "inline", "type": "assessment",
                  "asyncActions": [ { "identifier": "motion", "type": "motion", "frequency": 50 } ],
                  "steps": [ { "identifier": "hold", "type": "active", "duration": 2, "commands": ["transitionAutomatically"] } ]
              } },
            { "identifier": "done", "type": "completion", "title": "Done" }
        ]
    }
    """

    @Test("a taskInfo task from the task directory and an inline one run nested and give nested task results")
    func nestedTasks() async throws {
        let stalled = StallWitness.shared.mark()
        let scratch = SessionTestEnvironment.scratch("task-info-task")
        let path = try SessionTasks.write(Self.outer, name: "Outer", in: scratch)
        let resources = URL(fileURLWithPath: Fixtures.path("SageResearch/Research/ResearchTests/Resources"))
        let harness = try await SessionHarness.make(taskPath: path, name: "task-info", taskDirectory: resources)
        let early = SessionHarness.movingOnEarly(from: ["Outer/foo/step2"], after: 1)
        let transcript = try await harness.runAutomatically { session, shown in
            guard shown.stepPath == "Outer/foo/step3" else { return try await early(session, shown) }
            // A required year question (its survey rule exits on 1900).
            try await session.forward(StepResultInput(answers: [.init(identifier: "step3", value: .integer(1970))]))
            return true
        }
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        #expect(transcript.steps == [
            "Outer/intro", "Outer/foo/step1", "Outer/foo/step2", "Outer/foo/step3", "Outer/foo/step4/step1", "Outer/foo/step4/step2",
            "Outer/foo/step5", "Outer/inline/hold", "Outer/done",
        ])

        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        #expect(RunOnDisk.identifiers(result["stepHistory"]) == ["intro", "foo", "inline", "done"])
        let foo = try #require(RunOnDisk.result("foo", in: result["stepHistory"]))
        #expect(foo["type"] as? String == "task")
        #expect(foo["taskRunUUID"] as? String == harness.session.taskRunUUID.uuidString)
        #expect(foo["endDate"] != nil)
        #expect(RunOnDisk.identifiers(foo["stepHistory"]) == ["step1", "step2", "step3", "step4", "step5"])
        #expect(RunOnDisk.identifiers(foo["path"]) == ["step1", "step2", "step3", "step4", "step5"])
        #expect(RunOnDisk.result("step4", in: foo["stepHistory"])?["type"] as? String == "section")
        let year = RunOnDisk.result("step3", in: foo["stepHistory"])
        #expect(year?["type"] as? String == "answer" && year?["value"] as? Int == 1970)
        #expect((year?["answerType"] as? [String: Any])?["type"] as? String == "integer")
        let inline = try #require(RunOnDisk.result("inline", in: result["stepHistory"]))
        #expect(inline["type"] as? String == "task")
        let file = try #require(RunOnDisk.result("motion", in: inline["asyncResults"]))
        #expect(file["relativePath"] as? String == "inline_motion.json")
        let recorded = try #require(RunOnDisk.seconds(of: file))
        #expect(recorded > 2 - TestTiming.tolerance(0.3) && recorded < 2 + TestTiming.tolerance(0.3) + stalled.seconds, "\(recorded) s; \(stalled.description)")
        try run.checkMotion("inline_motion.json", markers: ["Outer/inline/hold"], sensors: ["accelerometer", "gyro"], duration: recorded, frequency: 50)
        let listed = try run.object("metadata.json")["files"] as? [[String: Any]] ?? []
        #expect(listed.first { $0["filename"] as? String == "inline_motion.json" }?["stepPath"] as? String == "inline")

        // The run's copy of the task holds the nested task inline, so a saved run resumes with it.
        let copy = try run.object("task.json")
        let steps = copy["steps"] as? [[String: Any]] ?? []
        let nested = steps.first { $0["identifier"] as? String == "foo" }?["task"] as? [String: Any]
        #expect(RunOnDisk.identifiers(nested?["steps"]) == ["step1", "step2", "step3", "step4", "step5"])
    }
}
