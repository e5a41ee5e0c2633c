import Testing
import TestSupport
import TaskModel
import TaskNavigation

/// SageResearch's StepControllerTests `testProgress_*` as a table: the navigator walks forward
/// to the step as the tests' `test_stepTo` does and reports its progress.
@Suite struct SageProgressTests {
    /// The tree of TaskControllerTests and StepControllerTests.
    static let tree = SageTestTrees.taskController

    static let flat = #"""
    {"identifier": "test", "type": "assessment", "steps": [
        {"identifier": "step1", "type": "instruction"}, {"identifier": "step2", "type": "instruction"},
        {"identifier": "step3", "type": "instruction"}, {"identifier": "step4", "type": "instruction"}
    ]}
    """#

    struct Row: Sendable, CustomTestStringConvertible {
        var test: String
        var task: String
        var stepPath: String
        var expected: StepProgress?
        var testDescription: String { test }
    }

    static let rows: [Row] = [
        Row(test: "testProgress_MarkersAndSections_Introduction", task: tree, stepPath: "test/introduction", expected: nil),
        Row(test: "testProgress_MarkersAndSections_Step2", task: tree, stepPath: "test/step2",
            expected: StepProgress(current: 2, total: 7, isEstimated: false)),
        Row(test: "testProgress_MarkersAndSections_Step7", task: tree, stepPath: "test/step7",
            expected: StepProgress(current: 7, total: 7, isEstimated: false)),
        Row(test: "testProgress_MarkersAndSections_Step4B", task: tree, stepPath: "test/step4/stepB",
            expected: StepProgress(current: 4, total: 7, isEstimated: false)),
        Row(test: "testProgress_MarkersAndSections_Step5X", task: tree, stepPath: "test/step5/stepX",
            expected: StepProgress(current: 5, total: 7, isEstimated: false)),
        Row(test: "testProgress_MarkersAndSections_Step6C", task: tree, stepPath: "test/step6/stepC",
            expected: StepProgress(current: 6, total: 7, isEstimated: false)),
        Row(test: "testProgress_MarkersAndSections_Completion", task: tree, stepPath: "test/completion", expected: nil),
        Row(test: "testProgress_NoMarkers_FlatHierarchy", task: flat, stepPath: "test/step2",
            expected: StepProgress(current: 2, total: 4, isEstimated: true)),
    ]

    @Test(arguments: rows) func progress(_ row: Row) throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(row.task))
        _ = try navigator.start()
        while navigator.currentStepPath != row.stepPath {
            #expect(try !navigator.goForward().isFinished, "\(row.stepPath) was never shown")
            if navigator.isFinished { return }
        }
        #expect(navigator.progress == row.expected)
    }

    @Test func hasStepBeforeAndAfter() throws {
        var navigator = TaskNavigator(task: try TaskJSON.task(Self.tree))
        _ = try navigator.start()
        #expect(!navigator.hasStepBefore && navigator.hasStepAfter)
        while navigator.currentStep?.identifier != "completion" { _ = try navigator.goForward() }
        // The completion step ends the task: Sage's hasStep(after: completion) is false.
        #expect(navigator.hasStepBefore && !navigator.hasStepAfter)
    }
}
