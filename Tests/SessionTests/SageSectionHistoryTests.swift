import Foundation
import Testing
import TaskModel
import TaskNavigation
import TestSupport

@testable import Session

/// When a section's result enters its parent's history (docs/runs.md), on SageResearch's own
/// TaskControllerTests tree: the session machine takes the commands, its section and show
/// effects go into a `ResultHistory` as the session carries them out
/// (ResultHistory+Moves.swift). Each row is one of Sage's `testNavigation_*` or
/// `testJumpBackward_*` cases (a step's `nextStepIdentifier` as `skipToIdentifier`), with what
/// Sage's RSDTaskViewModel holds after it: the task's step history (`taskViewModel.taskResult`)
/// and the history of the section around the step shown (`currentNode.nodePathHistory`, the
/// section path component's own result, not yet in the task's history while it is open).
@Suite("SageResearch's section results, move by move")
struct SageSectionHistoryTests {
    enum Move: Sendable {
        case forward
        case back
        /// A forward command with `skipToIdentifier`.
        case forwardSkipping(to: String)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        /// Forward from the first step until this step shows (Sage's `test_stepTo`).
        var stepTo: String
        var moves: [Move]
        /// The step shown after the moves, relative to the task.
        var shown: String
        /// The task's step history: identifiers, a section with its own history as `id[…]`.
        var top: String
        /// The open sections' results, outermost first, rendered as `top`.
        var open: String
        /// The identifiers of the task's path (Sage's `taskResult.nodePath`), when checked.
        var topPath: String? = nil
        var testDescription: String { name }
    }

    static let history4 = "introduction step1 step2 step3 step4[stepA stepB stepC]"

    static let rows: [Row] = [
        // Sage asserts the task's history at stepX, then step4's own history after going back.
        Row(name: "testNavigation_BackFrom5X (at stepX)", stepTo: "step5/stepX", moves: [], shown: "step5/stepX",
            top: history4, open: "step5[stepX]"),
        Row(name: "testNavigation_BackFrom5X", stepTo: "step5/stepX", moves: [.back], shown: "step4/stepC",
            top: history4, open: "step4[stepA stepB stepC]"),
        // Going back keeps the history: stepY shown again is appended after stepZ.
        Row(name: "testNavigation_BackFrom5Z", stepTo: "step5/stepZ", moves: [.back], shown: "step5/stepY",
            top: history4, open: "step5[stepX stepY stepZ stepY]"),
        Row(name: "testNavigation_ForwardFrom5X", stepTo: "step5/stepX", moves: [.forward], shown: "step5/stepY",
            top: history4, open: "step5[stepX stepY]"),
        // Left forward, step5's result enters the task's history; step6 is open with stepA.
        Row(name: "testNavigation_ForwardFrom5Z", stepTo: "step5/stepZ", moves: [.forward], shown: "step6/stepA",
            top: history4 + " step5[stepX stepY stepZ]", open: "step6[stepA]"),
        Row(name: "testNavigation_BackFrom3 (at step3)", stepTo: "step3", moves: [], shown: "step3",
            top: "introduction step1 step2 step3", open: "", topPath: "introduction step1 step2 step3"),
        // The history keeps step3; the path goes back to step2.
        Row(name: "testNavigation_BackFrom3", stepTo: "step3", moves: [.back], shown: "step2",
            top: "introduction step1 step2 step3 step2", open: "", topPath: "introduction step1 step2"),
        Row(name: "testNavigation_ForwardFrom2", stepTo: "step2", moves: [.forward], shown: "step3",
            top: "introduction step1 step2 step3", open: ""),
        // A forward command's jump out of a section leaves it forward (testJumpBackward_OutOfSection:
        // the section path completes before its parent moves on).
        Row(name: "skipToIdentifier from step5/stepY back to step3", stepTo: "step5/stepY", moves: [.forwardSkipping(to: "step3")],
            shown: "step3", top: history4 + " step5[stepX stepY] step3", open: ""),
        // Jumps by a forward command (Sage's nextStepIdentifier, here skipToIdentifier).
        Row(name: "testJumpBackward_FromBToA", stepTo: "step4/stepB", moves: [.forwardSkipping(to: "stepA")], shown: "step4/stepA",
            top: "introduction step1 step2 step3", open: "step4[stepA stepB stepA]"),
        Row(name: "testJumpBackward_OutOfSection", stepTo: "step4/stepB", moves: [.forwardSkipping(to: "step1")], shown: "step1",
            top: "introduction step1 step2 step3 step4[stepA stepB] step1", open: ""),
        // testJumpBackward_OutOfSection_ToPriorSection: the section left enters the history, the
        // one jumped back to starts anew at its first step.
        Row(name: "testJumpBackward_OutOfSection_ToPriorSection", stepTo: "step5/stepY", moves: [.forwardSkipping(to: "step4")],
            shown: "step4/stepA", top: history4 + " step5[stepX stepY]", open: "step4[stepA]"),
        // A forward command's jump back to a visited section (testJumpBackward_From7To5X, where
        // step7's nextStepIdentifier is step5) starts a new result for it: the old one stays in
        // the task's history, the new one enters it when it is left forward.
        Row(name: "testJumpBackward_From7To5X", stepTo: "step7", moves: [.forwardSkipping(to: "step5")], shown: "step5/stepX",
            top: history4 + " step5[stepX stepY stepZ] step6[stepA stepB stepC] step7", open: "step5[stepX]"),
        // The back command out of a section's first step leaves it out of the history; going
        // back in resumes step4's result, which keeps the steps shown again and replaces itself
        // as the task's last entry when it is left forward; step5 starts anew.
        Row(name: "back from step5/stepX twice, then forward twice", stepTo: "step5/stepX", moves: [.back, .back, .forward, .forward],
            shown: "step5/stepX", top: "introduction step1 step2 step3 step4[stepA stepB stepC stepB stepC]", open: "step5[stepX]"),
    ]

    @Test(arguments: rows) func sectionResults(_ row: Row) throws {
        var machine = try SessionMachineTests.machine(task: SageTestTrees.taskController)
        let task = machine.task
        var history = ResultHistory(taskIdentifier: task.identifier, taskRunUUID: machine.taskRunUUID, startDate: Date(timeIntervalSince1970: 0))
        var shown = ""
        func take(_ command: SessionMachine.Command) throws {
            for effect in try machine.handle(.command(command, at: 0)) {
                switch effect {
                case .moveSections(let exited, let entered, let direction, let resume):
                    history.moveSections(exited: exited, entered: entered, direction: direction, resume: resume, in: task, at: Date())
                case .showStep(let location, let direction):
                    history.showStep(at: location, direction: direction, in: task, at: Date())
                    shown = task.stepPath(of: location)
                default:
                    break
                }
            }
        }
        try take(.start)
        while shown != "test/\(row.stepTo)" {
            let before = shown
            try take(.forward(StepResultInput()))
            try #require(shown != before, "forward from \(before) showed nothing")
        }
        for move in row.moves {
            switch move {
            case .forward: try take(.forward(StepResultInput()))
            case .back: try take(.back)
            case .forwardSkipping(let target): try take(.forward(StepResultInput(skipToIdentifier: target)))
            }
        }
        #expect(shown == "test/\(row.shown)")
        #expect(Self.render(history.taskResult().stepHistory) == row.top)
        #expect(Self.render(history.openSectionResults) == row.open)
        if let path = row.topPath { #expect(history.taskResult().path.map(\.identifier).joined(separator: " ") == path) }
    }

    /// Identifiers; a section or nested task as `id[its history]`.
    static func render(_ results: [AnyResult]) -> String {
        results.map { item -> String in
            if let section = item.result as? SectionResult { return "\(section.identifier)[\(render(section.stepHistory))]" }
            if let task = item.result as? TaskResult { return "\(task.identifier)[\(render(task.stepHistory))]" }
            return item.result.identifier
        }.joined(separator: " ")
    }
}
