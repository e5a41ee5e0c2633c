import Foundation
import Testing
import TaskModel
import ThresholdTask
@testable import TaskNavigation

/// A navigator that never goes back.
private struct ForwardOnlyNavigator: StepNavigator {
    func step(before location: StepLocation, in context: NavigationContext) -> StepLocation? { nil }
}

/// The session's navigator driven by a custom task's own `StepNavigator` (docs/custom-tasks.md).
@Suite struct StepNavigatorTests {
    static func task(value: Int?, type: String = "thresholdTask") throws -> TaskDefinition {
        var registry = TypeRegistry()
        registry.registerTaskType("thresholdTask", ThresholdTask.self)
        let member = value.map { #""value": \#($0), "# } ?? ""
        return try TaskJSON.task(#"""
        {"identifier": "t", "type": "\#(type)", \#(member)"progressMarkers": ["a", "b", "c"], "steps": [
            {"identifier": "a", "type": "instruction"},
            {"identifier": "b", "type": "instruction"},
            {"identifier": "c", "type": "instruction"},
            {"identifier": "end", "type": "completion"}
        ]}
        """#, registry: registry)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var type: String
        var value: Int?
        /// The steps going forward, and the progress on each.
        var paths: [String]
        var progress: [StepProgress?]
        /// Where going back from the third step shown leads.
        var backFromThird: String
        var testDescription: String { "\(type) value \(value.map(String.init) ?? "absent")" }
    }

    static let cases: [Case] = [
        Case(type: "thresholdTask", value: 1, paths: ["t/a", "t/b", "t/c", "t/end"],
             progress: [.init(current: 1, total: 4, isEstimated: true), .init(current: 2, total: 4, isEstimated: true),
                        .init(current: 3, total: 4, isEstimated: true), .init(current: 4, total: 4, isEstimated: true)],
             backFromThird: "t/b"),
        Case(type: "thresholdTask", value: nil, paths: ["t/a", "t/b", "t/c", "t/end"],
             progress: [.init(current: 1, total: 4, isEstimated: true), .init(current: 2, total: 4, isEstimated: true),
                        .init(current: 3, total: 4, isEstimated: true), .init(current: 4, total: 4, isEstimated: true)],
             backFromThird: "t/b"),
        Case(type: "thresholdTask", value: 5, paths: ["t/a", "t/c", "t/end"],
             progress: [.init(current: 1, total: 4, isEstimated: true), .init(current: 2, total: 4, isEstimated: true),
                        .init(current: 3, total: 4, isEstimated: true)],
             backFromThird: "t/c"),
        // The built-in task type: the conditional navigator, with the task's progress markers.
        Case(type: "assessment", value: 5, paths: ["t/a", "t/b", "t/c", "t/end"],
             progress: [.init(current: 1, total: 3, isEstimated: false), .init(current: 2, total: 3, isEstimated: false),
                        .init(current: 3, total: 3, isEstimated: false), nil],
             backFromThird: "t/b"),
    ]

    @Test(arguments: cases)
    func navigatesWithTheTasksNavigator(_ test: Case) throws {
        let task = try Self.task(value: test.value, type: test.type)
        #expect((task.stepNavigator is ThresholdTask.Navigator) == (test.type == "thresholdTask"))
        var navigator = TaskNavigator(task: task)
        var paths: [String] = []
        var progress: [StepProgress?] = []
        var transition = try navigator.start()
        while !transition.isFinished {
            paths.append(try #require(navigator.currentStepPath))
            progress.append(navigator.progress)
            transition = try navigator.goForward()
        }
        #expect(paths == test.paths)
        #expect(progress == test.progress)

        var walker = TaskNavigator(task: task)
        _ = try walker.start()
        #expect(!walker.hasStepBefore)
        _ = try walker.goForward()
        _ = try walker.goForward()
        #expect(walker.hasStepBefore)
        let back = try walker.goBack()
        #expect(back.direction == .backward)
        #expect(walker.currentStepPath == test.backFromThird)
        // The plan walks the same navigator.
        #expect(try TaskPlan(task: task).steps.map(\.stepPath) == test.paths)
    }

    @Test func anInjectedNavigatorDecidesTheBackMove() throws {
        let task = try Self.task(value: 1)
        var navigator = TaskNavigator(task: task, stepNavigator: ForwardOnlyNavigator())
        _ = try navigator.start()
        _ = try navigator.goForward()
        #expect(!navigator.hasStepBefore, "a navigator that refuses back leaves no step before")
        #expect(throws: NavigationError.atFirstStep) { try navigator.goBack() }
        #expect(navigator.currentStepPath == "t/b")
        // Its other answers are the conditional navigator's: markers included.
        #expect(navigator.progress == StepProgress(current: 2, total: 3, isEstimated: false))
        #expect(ConditionalStepNavigator().progressMarkers(in: navigator.context) == ["a", "b", "c"])
    }
}
