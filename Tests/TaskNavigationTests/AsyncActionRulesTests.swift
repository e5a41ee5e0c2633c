import Foundation
import Testing
import TaskModel
@testable import TaskNavigation

/// docs/task-format.md: which async actions start and stop on each move.
@Suite struct AsyncActionRulesTests {
    static let json = #"""
    {"identifier": "t", "type": "assessment",
     "asyncActions": [
        {"identifier": "whole", "type": "microphone"},
        {"identifier": "span", "type": "motion", "startStepIdentifier": "countdown", "stopStepIdentifier": "walk"}
     ],
     "steps": [
        {"identifier": "intro", "type": "overview"},
        {"identifier": "sec", "type": "section",
         "asyncActions": [
            {"identifier": "owned", "type": "motion"},
            {"identifier": "onWalk", "type": "motion", "startStepIdentifier": "walk", "stopStepIdentifier": "walk"}
         ],
         "steps": [
            {"identifier": "countdown", "type": "countdown"},
            {"identifier": "walk", "type": "active", "duration": 30},
            {"identifier": "rest", "type": "instruction"}
         ]},
        {"identifier": "done", "type": "completion"}
     ]}
    """#

    private func names(_ references: [AsyncActionReference]) -> [String] {
        references.map(\.description)
    }

    @Test func startsAndStopsAlongTheForwardPath() throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(Self.json))
        let start = try navigator.start()
        #expect(names(start.startAsyncActions) == ["t:whole"])
        let countdown = try navigator.goForward()
        #expect(names(countdown.startAsyncActions) == ["t:span", "t/sec:owned"])
        #expect(countdown.stopAsyncActions.isEmpty)
        let walk = try navigator.goForward()
        #expect(names(walk.startAsyncActions) == ["t/sec:onWalk"])
        let rest = try navigator.goForward()
        #expect(names(rest.stopAsyncActions) == ["t:span", "t/sec:onWalk"])
        let done = try navigator.goForward()
        #expect(names(done.stopAsyncActions) == ["t/sec:owned"])
        let finish = try navigator.goForward()
        #expect(finish.isFinished)
        #expect(names(finish.stopAsyncActions) == ["t:whole"])
        #expect(navigator.runningAsyncActions.isEmpty)
    }

    @Test func aStepTimerFinishingStopsItsActionsOnce() throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(Self.json))
        _ = try navigator.start()
        _ = try navigator.goForward()
        _ = try navigator.goForward()
        #expect(navigator.currentStepPath == "t/sec/walk")
        #expect(names(navigator.stepTimerFinished()) == ["t:span", "t/sec:onWalk"])
        #expect(try navigator.goForward().stopAsyncActions.isEmpty)
    }

    @Test func restartingAStepStartsItsActionsAgain() throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(Self.json))
        _ = try navigator.start()
        _ = try navigator.goForward()
        _ = try navigator.goForward()
        let restart = try navigator.skip(to: "countdown")
        #expect(restart.direction == .backward)
        #expect(names(restart.stopAsyncActions) == ["t:span", "t/sec:onWalk"])
        #expect(names(restart.startAsyncActions) == ["t:span"])
        #expect(names(try navigator.goForward().startAsyncActions) == ["t/sec:onWalk"])
    }

    @Test func cancellingStopsEverythingRunning() throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(Self.json))
        _ = try navigator.start()
        _ = try navigator.goForward()
        let cancel = navigator.finish()
        #expect(cancel.isFinished)
        #expect(Set(names(cancel.stopAsyncActions)) == ["t:whole", "t:span", "t/sec:owned"])
    }

    @Test func ownersEnteredPrepareTheirActions() throws {
        let task = try TaskJSON.task(Self.json)
        #expect(names(AsyncActionRules.actionsToPrepare(entering: StepLocation([0]), from: nil, in: task)) == ["t:whole", "t:span"])
        #expect(names(AsyncActionRules.actionsToPrepare(entering: StepLocation([1, 0]), from: StepLocation([0]), in: task)) == ["t/sec:owned", "t/sec:onWalk"])
        #expect(AsyncActionRules.actionsToPrepare(entering: StepLocation([1, 1]), from: StepLocation([1, 0]), in: task).isEmpty)
        var navigator = TaskNavigator(task: task)
        #expect(try navigator.start().startsWithStepTimer == false)
        #expect(try navigator.goForward().startsWithStepTimer) // the countdown: 5 s by default
    }

    @Test func pureRulesForASingleMove() throws {
        let task = try TaskJSON.task(Self.json)
        // Entering the section from the intro starts what the section owns and what starts at countdown.
        #expect(names(AsyncActionRules.actionsToStart(entering: StepLocation([1, 0]), from: StepLocation([0]), in: task)) == ["t:span", "t/sec:owned"])
        // Moving inside the section does not start the owner-level action again.
        #expect(names(AsyncActionRules.actionsToStart(entering: StepLocation([1, 2]), from: StepLocation([1, 1]), in: task)).isEmpty)
        let running = AsyncActionRules.actionsToStart(entering: StepLocation([1, 0]), from: nil, in: task)
        #expect(names(AsyncActionRules.actionsToStop(leaving: StepLocation([1, 2]), to: StepLocation([2]), running: running, in: task)) == ["t/sec:owned"])
    }
}
