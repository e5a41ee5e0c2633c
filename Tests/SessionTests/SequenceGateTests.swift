import Session
import Testing

/// `SequenceGate`: who waits, and who goes on at each change (docs/session.md).
@Suite("Sequence gate: waiters go on when the count reaches them, or when it ends")
struct SequenceGateTests {
    /// An actor keeping a gate, as the session and the daemon do.
    actor Keeper {
        var gate = SequenceGate()
        private(set) var released: [UInt64] = []

        func wait(for target: UInt64) async {
            if gate.mustWait(for: target) {
                await withCheckedContinuation { gate.enqueue(target, $0) }
            }
            released.append(target)
        }

        func apply(_ change: Change) {
            switch change {
            case .advance(let value): gate.advance(to: value)
            case .end: gate.end()
            case .restart: gate.restart()
            }
        }

        func waiting(for target: UInt64) -> Bool { gate.mustWait(for: target) }
        var waiterCount: Int { gate.waiterCount }
    }

    enum Change: Sendable, CustomTestStringConvertible {
        case advance(UInt64), end, restart
        var testDescription: String {
            switch self {
            case .advance(let value): "advance(\(value))"
            case .end: "end"
            case .restart: "restart"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var before: [Change]
        var waiters: [UInt64]
        var change: Change
        /// The waiters released by `change`, in ascending order.
        var released: [UInt64]
        var testDescription: String { "\(before.map(\.testDescription)) then waiting \(waiters), \(change.testDescription) releases \(released)" }
    }

    static let cases: [Case] = [
        Case(before: [], waiters: [1, 2, 3], change: .advance(2), released: [1, 2]),
        Case(before: [.advance(5)], waiters: [6, 8], change: .advance(4), released: []),
        Case(before: [], waiters: [1, 9], change: .end, released: [1, 9]),
        Case(before: [.advance(3)], waiters: [4, 7], change: .restart, released: [4, 7]),
        Case(before: [.end, .restart], waiters: [1], change: .advance(1), released: [1]),
    ]

    @Test(arguments: cases)
    func releases(_ testCase: Case) async throws {
        let keeper = Keeper()
        for change in testCase.before { await keeper.apply(change) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for target in testCase.waiters {
                #expect(await keeper.waiting(for: target), "waiter \(target) would not wait")
                group.addTask { await keeper.wait(for: target) }
            }
            // Every waiter is parked before the change (each enqueues on the actor, in order).
            while await keeper.waiterCount < testCase.waiters.count { await Task.yield() }
            await keeper.apply(testCase.change)
            while await keeper.released.count < testCase.released.count { await Task.yield() }
            #expect(await keeper.released.sorted() == testCase.released)
            #expect(await keeper.waiterCount == testCase.waiters.count - testCase.released.count)
            // The rest go on when the gate ends, so the group can finish.
            await keeper.apply(.end)
            try await group.waitForAll()
        }
        #expect(await keeper.released.sorted() == testCase.waiters.sorted())
    }

    @Test func anEndedGateNeverWaits() {
        var gate = SequenceGate()
        gate.end()
        #expect(!gate.mustWait(for: 100))
        gate.restart()
        #expect(gate.mustWait(for: 1))
        gate.advance(to: 1)
        #expect(!gate.mustWait(for: 1) && gate.mustWait(for: 2))
    }
}
