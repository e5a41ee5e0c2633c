import Testing
import TaskModel
import TaskNavigation

@testable import Session

/// What a step offers (`stepShown.allowedActions`) and what the machine takes agree: `back` and
/// `skip` are offered exactly where the machine does not refuse them (docs/session.md).
@Suite("Session machine: the actions offered are the actions taken")
struct SessionMachineAllowedActionsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        /// Forward commands from the start before the step is checked.
        var forwards: Int
        var step: String
        var back: Bool
        var skip: Bool
        var testDescription: String { "\(step): back \(back), skip \(skip)" }
    }

    /// SessionMachineTests' task: intro (hides skip), walk, check, done (completion).
    static let rows: [Row] = [
        Row(forwards: 0, step: "intro", back: false, skip: false),
        Row(forwards: 1, step: "walk", back: true, skip: true),
        Row(forwards: 2, step: "check", back: true, skip: true),
        Row(forwards: 3, step: "done", back: false, skip: false),
    ]

    @Test(arguments: rows)
    func offeredIsTaken(_ row: Row) throws {
        var machine = try SessionMachineTests.machine()
        _ = try machine.handle(.command(.start, at: 0))
        for _ in 0..<row.forwards { _ = try machine.handle(.command(.forward(StepResultInput()), at: 0)) }
        let step = try #require(machine.navigator.currentStep)
        #expect(step.identifier == row.step)
        let offered = machine.allowedActions(on: step)
        #expect(offered.contains("back") == row.back)
        #expect(offered.contains("skip") == row.skip)
        for (command, name) in [(SessionMachine.Command.back, "back"), (.skip(to: nil), "skip")] {
            var copy = machine
            do {
                _ = try copy.handle(.command(command, at: 0))
                #expect(offered.contains(name), "\(name) was taken on \(row.step) but not offered")
            } catch {
                #expect(!offered.contains(name), "\(name) was offered on \(row.step) but refused: \(error)")
                #expect((error as? SessionError)?.code == .notAllowed)
            }
        }
    }
}
