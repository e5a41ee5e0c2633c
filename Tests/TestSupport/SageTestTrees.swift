/// Task trees of SageResearch's own unit tests, shared by the tests that port them.
public enum SageTestTrees {
    /// The tree of TaskControllerTests and StepControllerTests (`test_stepTo` walks it
    /// forward): an introduction, four steps, three sections, step7 and a completion step, with
    /// the progress markers step1…step7 at the task level only.
    public static let taskController = #"""
{"identifier": "test", "type": "assessment",
 "progressMarkers": ["step1", "step2", "step3", "step4", "step5", "step6", "step7"],
 "steps": [
    {"identifier": "introduction", "type": "instruction"},
    {"identifier": "step1", "type": "instruction"},
    {"identifier": "step2", "type": "instruction"},
    {"identifier": "step3", "type": "instruction"},
    {"identifier": "step4", "type": "section", "steps": [
        {"identifier": "stepA", "type": "instruction"}, {"identifier": "stepB", "type": "instruction"},
        {"identifier": "stepC", "type": "instruction"}]},
    {"identifier": "step5", "type": "section", "steps": [
        {"identifier": "stepX", "type": "instruction"}, {"identifier": "stepY", "type": "instruction"},
        {"identifier": "stepZ", "type": "instruction"}]},
    {"identifier": "step6", "type": "section", "steps": [
        {"identifier": "stepA", "type": "instruction"}, {"identifier": "stepB", "type": "instruction"},
        {"identifier": "stepC", "type": "instruction"}]},
    {"identifier": "step7", "type": "instruction"},
    {"identifier": "completion", "type": "completion"}
]}
"""#
}
