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
        #expect(!ledger.isWaiting)
    }

    @Test("ask opens one question per permission; the answer is remembered for the run")
    func ask() {
        var ledger = PermissionLedger(policy: PermissionPolicy(default: .ask), timeout: 120)
        guard case .ask(let question) = ledger.request(.microphone, for: "mic", now: 10) else {
            Issue.record("expected a question")
            return
        }
        #expect(question.deadline == 130)
        let second = ledger.request(.microphone, for: "mic2", now: 11)
        #expect(second == .waiting(id: question.id))
        let answered = ledger.answer(question.id, granted: true)
        #expect(answered?.waiting == ["mic", "mic2"])
        let again = ledger.answer(question.id, granted: true)
        #expect(again == nil)
        let remembered = ledger.request(.microphone, for: "mic3", now: 12)
        #expect(remembered == .granted)
    }

    @Test("a question nobody answers is denied at its deadline")
    func timeout() {
        var ledger = PermissionLedger(policy: PermissionPolicy(default: .ask), timeout: 120)
        _ = ledger.request(.motion, for: "m", now: 0)
        #expect(ledger.nextDeadline == 120)
        let early = ledger.expire(now: 119.9)
        #expect(early.isEmpty)
        let expired = ledger.expire(now: 120)
        #expect(expired.map(\.permission) == [.motion])
        let after = ledger.request(.motion, for: "m2", now: 121)
        #expect(after == .denied)
    }
}
