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
        #expect(ledger.request(.motion, for: "a", now: 0) == expected)
        #expect(!ledger.isWaiting)
    }

    @Test("ask opens one question per permission; the answer is remembered for the run")
    func ask() throws {
        var ledger = PermissionLedger(policy: PermissionPolicy(default: .ask), timeout: 120)
        guard case .ask(let question) = ledger.request(.microphone, for: "mic", now: 10) else {
            Issue.record("expected a question")
            return
        }
        #expect(question.deadline == 130)
        #expect(ledger.request(.microphone, for: "mic2", now: 11) == .waiting(id: question.id))
        let answered = try #require(ledger.answer(question.id, granted: true))
        #expect(answered.waiting == ["mic", "mic2"])
        #expect(ledger.answer(question.id, granted: true) == nil)
        #expect(ledger.request(.microphone, for: "mic3", now: 12) == .granted)
    }

    @Test("a question nobody answers is denied at its deadline")
    func timeout() {
        var ledger = PermissionLedger(policy: PermissionPolicy(default: .ask), timeout: 120)
        _ = ledger.request(.motion, for: "m", now: 0)
        #expect(ledger.nextDeadline == 120)
        #expect(ledger.expire(now: 119.9).isEmpty)
        #expect(ledger.expire(now: 120).map(\.permission) == [.motion])
        #expect(ledger.request(.motion, for: "m2", now: 121) == .denied)
    }
}
