import Session
import TaskModel
import Testing

@Suite("Permission ledger")
struct PermissionLedgerTests {
    @Test("policy decides, answers are remembered", arguments: [
        (PermissionDecision.granted, PermissionLedger.Outcome.granted),
        (.denied, .denied),
    ])
    func policy(decision: PermissionDecision, expected: PermissionLedger.Outcome) {
        var ledger = PermissionLedger(policy: PermissionPolicy([.motion: decision], default: .ask))
        let outcome = ledger.request(.motion, for: "a", now: 0)
        #expect(outcome == expected)
    }

    @Test("ask makes a numbered question due after the timeout; the answer is remembered for the run")
    func ask() {
        var ledger = PermissionLedger(policy: PermissionPolicy(default: .ask), timeout: 120)
        guard case .ask(let question) = ledger.request(.microphone, for: "mic", now: 10) else {
            Issue.record("expected a question")
            return
        }
        #expect(question.deadline == 130 && question.waiting == ["mic"])
        // Not answered yet: another request is another question (the run's wait joins it to the open one).
        guard case .ask(let second) = ledger.request(.motion, for: "motion", now: 11) else {
            Issue.record("expected a second question")
            return
        }
        #expect(second.id != question.id)
        ledger.record(question, granted: true)
        #expect(ledger.request(.microphone, for: "mic3", now: 12) == .granted)
        ledger.record(second, granted: false)
        #expect(ledger.request(.motion, for: "motion2", now: 13) == .denied)
    }
}
