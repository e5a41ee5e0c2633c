import Foundation
import Testing
import TaskModel
import TaskNavigation

@testable import Session

/// The session machine on a question step (docs/task-format.md, "Question steps" and "Survey
/// rules"): each row answers the question `q` and names the refusal (with its coding path) or
/// the step shown next, the answer recorded and the cohorts after it.
@Suite("Session machine: questions")
struct SessionMachineQuestionTests {
    /// q: an integer from 0 to 10 (required); 0 jumps to `zero`, 10 exits; 5 adds the cohort
    /// `five`; `after` needs `five` to be skipped.
    static let task = #"""
    {"identifier": "t", "type": "assessment", "steps": [
        {"identifier": "q", "type": "simpleQuestion", "title": "How many?", "optional": false,
         "inputItem": {"type": "integer", "formatOptions": {"minimumValue": 0, "maximumValue": 10}},
         "surveyRules": [{"matchingAnswer": 0, "skipToIdentifier": "zero"}, {"matchingAnswer": 10, "ruleOperator": "eq"},
                         {"matchingAnswer": 5, "cohort": "five"}, {"ruleOperator": "de", "cohort": "unanswered"}]},
        {"identifier": "after", "type": "instruction", "beforeCohortRules": [{"requiredCohorts": ["five"]}]},
        {"identifier": "zero", "type": "instruction"},
        {"identifier": "done", "type": "completion"}
    ]}
    """#

    static func machine(cohorts: Set<String> = ["adult"]) throws -> SessionMachine {
        let loaded = try TaskLoader().load(data: Data(task.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else { throw SessionError(.invalidArgument, "not a task") }
        var machine = SessionMachine(task: task, taskRunUUID: UUID(), navigator: TaskNavigator(task: task, cohorts: cohorts),
                                     ledger: PermissionLedger(policy: PermissionPolicy(), timeout: 120), handCoin: HandCoin(seed: 1))
        _ = try machine.handle(.command(.start, at: 0))
        return machine
    }

    enum Outcome: Sendable {
        /// Refused with this coding path.
        case refused(String)
        /// Shows the step at this index (nil: the run ends) with these cohorts; the answer recorded.
        case moves(to: Int?, cohorts: Set<String>, recorded: JSONValue)
    }

    static let rows: [(String, [StepResultInput.Answer], Outcome)] = [
        ("a text is refused", [.init(identifier: "q", value: "3")], .refused("answers[0].value")),
        ("over the maximum is refused", [.init(identifier: "q", value: 11)], .refused("answers[0].value")),
        ("no answer to a required question is refused", [], .refused("answers")),
        ("an answer to another question is refused", [.init(identifier: "r", value: 3)], .refused("answers[0].identifier")),
        ("3 goes on in order", [.init(identifier: "q", value: 3)], .moves(to: 1, cohorts: ["adult"], recorded: 3)),
        ("0 jumps to zero", [.init(identifier: "q", value: 0)], .moves(to: 2, cohorts: ["adult"], recorded: 0)),
        ("10 exits", [.init(identifier: "q", value: 10.0)], .moves(to: nil, cohorts: ["adult"], recorded: 10)),
        ("5 adds five, which skips after", [.init(identifier: "q", value: 5)], .moves(to: 2, cohorts: ["adult", "five"], recorded: 5)),
    ]

    @Test(arguments: rows.indices)
    func forward(row: Int) throws {
        let (name, answers, outcome) = Self.rows[row]
        var machine = try Self.machine()
        let input = StepResultInput(answers: answers)
        switch outcome {
        case .refused(let codingPath):
            #expect(throws: SessionError.self, "\(name)") { try machine.handle(.command(.forward(input), at: 0)) }
            do { _ = try machine.handle(.command(.forward(input), at: 0)) } catch {
                #expect(error.code == .invalidArgument && error.codingPath == codingPath, "\(name): \(error)")
            }
            #expect(machine.navigator.currentLocation == StepLocation([0]), "\(name): the question stays shown")
        case .moves(let index, let cohorts, let recorded):
            let effects = try machine.handle(.command(.forward(input), at: 0))
            #expect(machine.navigator.currentLocation == index.map { StepLocation([$0]) }, "\(name)")
            #expect(machine.navigator.cohorts == cohorts, "\(name)")
            let expected = StepResultInput(answers: [.init(identifier: "q", value: recorded, answerType: ["type": "integer"], questionText: "How many?")])
            #expect(effects.first == .recordStepResult(expected, at: StepLocation([0])), "\(name): \(effects)")
            if index == nil { #expect(effects.contains(.then(.endRun(.earlyExit))), "\(name): \(effects)") }
        }
    }

    @Test func skippingTheQuestionAppliesOnlyItsSkipRules() throws {
        var machine = try Self.machine()
        _ = try machine.handle(.command(.skip(to: nil), at: 0))
        #expect(machine.navigator.cohorts == ["adult", "unanswered"])
        #expect(machine.navigator.currentLocation == StepLocation([1]))
    }
}
