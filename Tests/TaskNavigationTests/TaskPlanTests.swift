import Foundation
import TestSupport
import Testing
import TaskModel
@testable import TaskNavigation

@Suite struct TaskPlanTests {
    @Test func planListsVisibleStepsWithActionsAndPrompts() throws {
        let json = #"""
        {"identifier": "t", "type": "assessment", "steps": [
            {"identifier": "intro", "type": "handInstruction", "duration": 0},
            {"identifier": "sec", "type": "section",
             "asyncActions": [{"identifier": "m", "type": "motion"}],
             "steps": [
                {"identifier": "count", "type": "countdown", "spokenInstructions": {"start": "Ready", "countdown": "2"}},
                {"identifier": "walk", "type": "active", "duration": 10, "spokenInstructions": {"end": "Stop"}}
             ]},
            {"identifier": "hr", "type": "heartRate", "duration": 60}
        ]}
        """#
        let plan = try TaskPlan(task: try TaskJSON.task(json))
        #expect(plan == TaskPlan(taskIdentifier: "t", steps: [
            .init(stepPath: "t/intro", type: "handInstruction", duration: nil),
            .init(stepPath: "t/sec/count", type: "countdown", duration: 5,
                  startAsyncActions: [.init(owner: "t/sec", identifier: "m")],
                  spokenInstructions: [.init(time: 0, text: "Ready", key: "start"), .init(time: 3, text: "two", key: "countdown-2"), .init(time: 4, text: "one", key: "countdown-1")]),
            .init(stepPath: "t/sec/walk", type: "active", duration: 10,
                  stopAsyncActions: [.init(owner: "t/sec", identifier: "m")],
                  spokenInstructions: [.init(time: 10, text: "Stop", key: "end")]),
            .init(stepPath: "t/hr", type: "heartRate", duration: 60),
        ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(plan.steps[0]), as: UTF8.self)
            == #"{"duration":null,"spokenInstructions":[],"startAsyncActions":[],"stepPath":"t/intro","stopAsyncActions":[],"type":"handInstruction"}"#)
    }

    @Test func subtasksRunAsSectionsAndTaskInfoStepsAreShown() throws {
        let json = #"""
        {"identifier": "t", "type": "assessment", "steps": [
            {"identifier": "info", "type": "taskInfo", "title": "About"},
            {"identifier": "sub", "type": "subtask", "task": {"identifier": "inner", "type": "assessment",
                "asyncActions": [{"identifier": "mic", "type": "microphone"}],
                "steps": [{"identifier": "x", "type": "active", "duration": 2}]}}
        ]}
        """#
        let plan = try TaskPlan(task: try TaskJSON.task(json))
        #expect(plan.steps == [
            .init(stepPath: "t/info", type: "taskInfo", duration: nil),
            .init(stepPath: "t/sub/x", type: "active", duration: 2,
                  startAsyncActions: [.init(owner: "t/sub", identifier: "mic")], stopAsyncActions: [.init(owner: "t/sub", identifier: "mic")]),
        ])
    }

    @Test func aPlanStopsWhereNavigationWouldLoopBack() throws {
        let json = #"""
        {"identifier": "t", "type": "assessment", "steps": [
            {"identifier": "a", "type": "instruction"},
            {"identifier": "b", "type": "instruction", "nextStepIdentifier": "a"}
        ]}
        """#
        let plan = try TaskPlan(task: try TaskJSON.task(json))
        #expect(plan.steps.map(\.stepPath) == ["t/a", "t/b"])
        #expect(plan.notes == ["The plan stops at t/a: navigation goes back to a step already planned."])
    }

    /// The issue's done-when check on SageResearch's own Walk and Balance task.
    @Test(.enabled(if: Fixtures.available, "../shared/fixtures is absent: Walk_And_Balance plan skipped"))
    func walkAndBalanceFromTheCorpus() throws {
        let (task, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.motorControl + "Walk_And_Balance.json"))
        let plan = try TaskPlan(task: task)
        let motion = try #require(plan.steps.first { $0.stepPath == "WalkAndBalance/walk/motion" })
        let recorder = TaskPlan.AsyncAction(owner: "WalkAndBalance/walk", identifier: "motion")
        #expect(motion.startAsyncActions == [recorder])
        #expect(motion.stopAsyncActions == [recorder])
        #expect(motion.duration == 30)
        let countdown = try #require(plan.steps.first { $0.stepPath == "WalkAndBalance/walk/countdown" })
        #expect(countdown.spokenInstructions == [SpokenInstruction(time: 0, text: "Place the phone in your pocket.", key: "start")])
        #expect(plan.steps.map(\.stepPath) == [
            "WalkAndBalance/introduction",
            "WalkAndBalance/walk/walkInstructions", "WalkAndBalance/walk/volumeUp", "WalkAndBalance/walk/pantsWithPocket",
            "WalkAndBalance/walk/phoneInPocket", "WalkAndBalance/walk/countdown", "WalkAndBalance/walk/motion",
            "WalkAndBalance/balance/turnAroundInstructions", "WalkAndBalance/balance/phoneInPocket",
            "WalkAndBalance/balance/countdown", "WalkAndBalance/balance/motion",
            "WalkAndBalance/completion",
        ])
    }
}
