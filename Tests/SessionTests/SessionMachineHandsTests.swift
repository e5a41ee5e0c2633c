import Foundation
import Testing
import TaskModel
import TaskNavigation

@testable import Session

/// The session machine's hands (SessionMachine+Hands.swift, docs/task-format.md, "Hands"): the
/// hand selection's answer becomes the recorded collection and the order the navigator follows;
/// the texts and the `end` prompt name the hand.
@Suite("Session machine: hands")
struct SessionMachineHandsTests {
    static let task = #"""
    {"identifier": "h", "type": "assessment", "steps": [
        {"identifier": "handSelection", "type": "handSelection"},
        {"identifier": "left", "type": "section", "steps": [
            {"identifier": "tap", "type": "active", "duration": 5, "spokenInstructions": {"end": "Done with your %@ hand."}}]},
        {"identifier": "right", "type": "section", "steps": [
            {"identifier": "tap", "type": "active", "duration": 5, "spokenInstructions": {"end": "Done with your %@ hand."}}]},
        {"identifier": "done", "type": "completion"}
    ]}
    """#

    struct Row: Sendable, CustomTestStringConvertible {
        var answer: JSONValue?
        var seed: UInt64
        /// The recorded handOrder, nil when nothing is recorded; the refusal otherwise.
        var order: [String]?
        var refused: Bool = false
        var testDescription: String { "\(answer.map { "\($0)" } ?? "no answer") seed \(seed)" }
    }

    /// The order a seeded coin gives for `both`.
    static func coinOrder(seed: UInt64) -> [String] {
        var coin = HandCoin(seed: seed)
        return coin.leftFirst() ? ["left", "right"] : ["right", "left"]
    }

    @Test(arguments: [
        Row(answer: "left", seed: 1, order: ["left"]),
        Row(answer: "right", seed: 1, order: ["right"]),
        Row(answer: "both", seed: 1, order: coinOrder(seed: 1)),
        Row(answer: "both", seed: 2, order: coinOrder(seed: 2)),
        Row(answer: "both", seed: 3, order: coinOrder(seed: 3)),
        // MotorControl's hand selection is a required question: no answer stays on the step.
        Row(answer: nil, seed: 1, order: nil, refused: true),
        Row(answer: "sideways", seed: 1, order: nil, refused: true),
        Row(answer: 3, seed: 1, order: nil, refused: true),
    ])
    func handSelection(_ row: Row) throws {
        var machine = try SessionMachineTests.machine(task: Self.task)
        machine.handCoin = HandCoin(seed: row.seed)
        _ = try machine.handle(.command(.start, at: 0))
        let input = StepResultInput(answers: row.answer.map { [.init(identifier: "handSelection", value: $0)] } ?? [])
        let effects: [SessionMachine.Effect]
        do {
            effects = try machine.handle(.command(.forward(input), at: 0))
        } catch {
            #expect(row.refused && error.code == .invalidArgument)
            #expect(machine.navigator.currentStepPath == "h/handSelection")
            return
        }
        #expect(!row.refused)
        let recorded = effects.compactMap { effect -> StepResultInput? in
            if case .recordStepResult(let input, _) = effect { return input }
            return nil
        }.first
        if let order = row.order {
            #expect(recorded?.answers.map(\.identifier) == ["handSelection", "handOrder"])
            #expect(recorded?.answers.last?.value == .array(order.map { .string($0) }))
            #expect(machine.navigator.handOrder?.map(\.rawValue) == order)
            #expect(machine.navigator.currentStepPath == "h/\(order[0])/tap")
            #expect(machine.endPrompt(of: try #require(machine.navigator.currentLocation)) == "Done with your \(order[0].uppercased()) hand.")
        } else {
            #expect(recorded?.answers.isEmpty == true)
            #expect(machine.navigator.handOrder == nil)
            #expect(machine.navigator.currentStepPath == "h/left/tap")
        }
    }

    @Test func aResumedRunFollowsTheRecordedOrder() throws {
        let now = Date()
        let order: JSONValue = .array(["right", "left"])
        var result = TaskResult(identifier: "h", startDate: now)
        result.stepHistory = [AnyResult(CollectionResult(identifier: "handSelection", startDate: now, endDate: now, children: [
            AnyResult(AnswerResult(identifier: "handSelection", startDate: now, endDate: now, value: "both")),
            AnyResult(AnswerResult(identifier: "handOrder", startDate: now, endDate: now, value: order)),
        ]))]
        var machine = try SessionMachineTests.machine(task: Self.task)
        machine.restoreHands(from: result)
        #expect(machine.navigator.handOrder == [.right, .left])
        var empty = try SessionMachineTests.machine(task: Self.task)
        empty.restoreHands(from: TaskResult(identifier: "h", startDate: now))
        #expect(empty.navigator.handOrder == nil)
    }
}
