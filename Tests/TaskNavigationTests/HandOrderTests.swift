import Foundation
import Testing
import TaskModel
import TaskNavigation

/// MotorControl's hands (docs/task-format.md, "Hands"): the order, the section rules, the hand
/// named in the texts, and navigation through a hand task.
@Suite struct HandOrderTests {
    struct OrderCase: Sendable, CustomTestStringConvertible {
        var selection: Hand
        var leftFirst: Bool
        var order: [Hand]
        var testDescription: String { "\(selection) leftFirst=\(leftFirst)" }
    }

    @Test(arguments: [
        OrderCase(selection: .left, leftFirst: true, order: [.left]),
        OrderCase(selection: .left, leftFirst: false, order: [.left]),
        OrderCase(selection: .right, leftFirst: true, order: [.right]),
        OrderCase(selection: .right, leftFirst: false, order: [.right]),
        OrderCase(selection: .both, leftFirst: true, order: [.left, .right]),
        OrderCase(selection: .both, leftFirst: false, order: [.right, .left]),
    ])
    func order(_ row: OrderCase) {
        #expect(HandOrder.order(for: row.selection, leftFirst: row.leftFirst) == row.order)
    }

    @Test func aSeededCoinRepeatsAndThrowsBothSides() {
        var first = HandCoin(seed: 42), second = HandCoin(seed: 42)
        let throwsA = (0..<64).map { _ in first.leftFirst() }
        let throwsB = (0..<64).map { _ in second.leftFirst() }
        #expect(throwsA == throwsB)
        #expect(throwsA.contains(true) && throwsA.contains(false))
    }

    struct SectionCase: Sendable, CustomTestStringConvertible {
        var section: String
        var order: [Hand]?
        var withResults: Set<String>
        var skips: Bool
        var target: String?
        var testDescription: String { "\(section) order=\(order.map { "\($0)" } ?? "nil") results=\(withResults.sorted())" }
    }

    /// MCTSkippableSectionStepObject's skip and navigation rules.
    @Test(arguments: [
        SectionCase(section: "walk", order: [.left], withResults: [], skips: false, target: nil),
        SectionCase(section: "left", order: nil, withResults: [], skips: false, target: nil),
        SectionCase(section: "right", order: nil, withResults: ["left"], skips: false, target: nil),
        SectionCase(section: "left", order: [.left], withResults: [], skips: false, target: nil),
        SectionCase(section: "left", order: [.left], withResults: ["left"], skips: true, target: nil),
        SectionCase(section: "right", order: [.left], withResults: ["left"], skips: true, target: nil),
        SectionCase(section: "left", order: [.right], withResults: [], skips: true, target: nil),
        SectionCase(section: "both", order: [.left, .right], withResults: [], skips: true, target: "right"),
        SectionCase(section: "left", order: [.left, .right], withResults: [], skips: false, target: "right"),
        SectionCase(section: "right", order: [.left, .right], withResults: [], skips: true, target: nil),
        SectionCase(section: "right", order: [.left, .right], withResults: ["left"], skips: false, target: nil),
        SectionCase(section: "left", order: [.right, .left], withResults: [], skips: true, target: nil),
        SectionCase(section: "right", order: [.right, .left], withResults: [], skips: false, target: "left"),
        SectionCase(section: "left", order: [.right, .left], withResults: ["right"], skips: false, target: nil),
        SectionCase(section: "right", order: [.right, .left], withResults: ["right", "left"], skips: true, target: nil),
    ])
    func sectionRules(_ row: SectionCase) {
        #expect(HandOrder.skipsSection(row.section, order: row.order, sectionsWithResults: row.withResults) == row.skips)
        let target = HandOrder.target(after: row.section, order: row.order, sectionsWithResults: row.withResults)
        // The jump only matters for the first hand; `both` is never first.
        if row.section != "both" { #expect(target == row.target) }
    }

    struct WhichHandCase: Sendable, CustomTestStringConvertible {
        var section: String?
        var order: [Hand]?
        var withResults: Set<String>
        var hand: Hand?
        var testDescription: String { "\(section ?? "top") order=\(order.map { "\($0)" } ?? "nil") results=\(withResults.sorted())" }
    }

    /// MCTHandStepController.whichHand() / nextHand().
    @Test(arguments: [
        WhichHandCase(section: "left", order: [.right, .left], withResults: [], hand: .left),
        WhichHandCase(section: "right", order: nil, withResults: [], hand: .right),
        WhichHandCase(section: nil, order: nil, withResults: [], hand: nil),
        WhichHandCase(section: "walk", order: nil, withResults: [], hand: nil),
        WhichHandCase(section: nil, order: [.left], withResults: [], hand: .left),
        WhichHandCase(section: nil, order: [.right], withResults: ["right"], hand: .right),
        WhichHandCase(section: nil, order: [.left, .right], withResults: [], hand: .left),
        WhichHandCase(section: nil, order: [.left, .right], withResults: ["left"], hand: .right),
        WhichHandCase(section: nil, order: [.right, .left], withResults: [], hand: .right),
        WhichHandCase(section: nil, order: [.right, .left], withResults: ["right"], hand: .left),
    ])
    func whichHand(_ row: WhichHandCase) {
        #expect(HandOrder.hand(sectionIdentifier: row.section, order: row.order, sectionsWithResults: row.withResults) == row.hand)
    }

    struct TextCase: Sendable, CustomTestStringConvertible {
        var text: String
        var hand: Hand?
        var shown: String
        var testDescription: String { "\(text) / \(hand.map(\.rawValue) ?? "nil")" }
    }

    @Test(arguments: [
        TextCase(text: "First, tap with your %@ hand", hand: .left, shown: "First, tap with your LEFT hand"),
        TextCase(text: "Tap the buttons with your %@ hand", hand: .right, shown: "Tap the buttons with your RIGHT hand"),
        TextCase(text: "%@ and %@", hand: .both, shown: "BOTH and BOTH"),
        TextCase(text: "No hand here.", hand: .left, shown: "No hand here."),
        TextCase(text: "With your %@ hand in your lap", hand: nil, shown: "With your hand in your lap"),
        TextCase(text: "%@ hand first", hand: nil, shown: "hand first"),
        TextCase(text: "on your %@", hand: nil, shown: "on your"),
        TextCase(text: "%@", hand: nil, shown: ""),
    ])
    func text(_ row: TextCase) {
        #expect(HandText.format(row.text, hand: row.hand) == row.shown)
    }

    /// A hand task shaped as MotorControl's: instruction naming the hand, left and right
    /// sections, completion.
    static let handTask = #"""
    {"identifier": "Hands", "type": "assessment", "steps": [
        {"identifier": "handSelection", "type": "handSelection"},
        {"identifier": "first", "type": "instruction", "title": "First, your %@ hand"},
        {"identifier": "left", "type": "section", "steps": [{"identifier": "tap", "type": "instruction", "title": "%@"}]},
        {"identifier": "right", "type": "section", "steps": [{"identifier": "tap", "type": "instruction", "title": "%@"}]},
        {"identifier": "completion", "type": "completion"}
    ]}
    """#

    struct PathCase: Sendable, CustomTestStringConvertible {
        var order: [Hand]?
        var paths: [String]
        var hands: [Hand?]
        var testDescription: String { order.map { "\($0)" } ?? "no order" }
    }

    /// NavigationTests.testSkippableSection_Left/_Right/_LeftThenRight/_RightThenLeft.
    @Test(arguments: [
        PathCase(order: [.left], paths: ["handSelection", "first", "left/tap", "completion"], hands: [nil, .left, .left, .left]),
        PathCase(order: [.right], paths: ["handSelection", "first", "right/tap", "completion"], hands: [nil, .right, .right, .right]),
        PathCase(order: [.left, .right], paths: ["handSelection", "first", "left/tap", "right/tap", "completion"],
                 hands: [nil, .left, .left, .right, .right]),
        PathCase(order: [.right, .left], paths: ["handSelection", "first", "right/tap", "left/tap", "completion"],
                 hands: [nil, .right, .right, .left, .left]),
        PathCase(order: nil, paths: ["handSelection", "first", "left/tap", "right/tap", "completion"], hands: [nil, nil, .left, .right, nil]),
    ])
    func navigation(_ row: PathCase) throws {
        let task = try TaskJSON.task(Self.handTask)
        var navigator = TaskNavigator(task: task)
        var paths: [String] = [], hands: [Hand?] = []
        var transition = try navigator.start()
        while let location = transition.to {
            paths.append(try #require(navigator.currentStepPath).replacingOccurrences(of: "Hands/", with: ""))
            hands.append(navigator.hand(at: location))
            if paths.count == 1 { navigator.handOrder = row.order }
            transition = try navigator.goForward()
        }
        #expect(paths == row.paths)
        // The selection step itself comes before any order (nil); after it the order decides.
        #expect(Array(hands.dropFirst()) == Array(row.hands.dropFirst()))
    }

    @Test func backFromTheSecondHandReturnsToTheFirstAndForwardKeepsTheOrder() throws {
        let task = try TaskJSON.task(Self.handTask)
        var navigator = TaskNavigator(task: task)
        _ = try navigator.start()
        navigator.handOrder = [.right, .left]
        _ = try navigator.goForward()
        _ = try navigator.goForward()
        _ = try navigator.goForward()
        #expect(navigator.currentStepPath == "Hands/left/tap")
        _ = try navigator.goBack()
        #expect(navigator.currentStepPath == "Hands/right/tap")
        _ = try navigator.goForward()
        #expect(navigator.currentStepPath == "Hands/left/tap")
        _ = try navigator.goForward()
        #expect(navigator.currentStepPath == "Hands/completion")
    }

    @Test func thePlanFollowsTheHandAndNamesItInThePrompts() throws {
        let task = try TaskJSON.task(#"""
        {"identifier": "T", "type": "assessment", "steps": [
            {"identifier": "handSelection", "type": "handSelection"},
            {"identifier": "left", "type": "section", "steps": [{"identifier": "tap", "type": "active", "duration": 2,
                "spokenInstructions": {"start": "Tap with your %@ hand"}}]},
            {"identifier": "right", "type": "section", "steps": [{"identifier": "tap", "type": "active", "duration": 2,
                "spokenInstructions": {"start": "Tap with your %@ hand"}}]}
        ]}
        """#)
        let right = try TaskPlan(task: task, hand: .right)
        #expect(right.steps.map(\.stepPath) == ["T/handSelection", "T/right/tap"])
        #expect(right.steps.last?.spokenInstructions.map(\.text) == ["Tap with your RIGHT hand"])
        let both = try TaskPlan(task: task, hand: .both)
        #expect(both.steps.map(\.stepPath) == ["T/handSelection", "T/left/tap", "T/right/tap"])
        #expect(both.steps.flatMap(\.spokenInstructions).map(\.text) == ["Tap with your LEFT hand", "Tap with your RIGHT hand"])
        let none = try TaskPlan(task: task)
        #expect(none.steps.flatMap(\.spokenInstructions).map(\.text) == ["Tap with your LEFT hand", "Tap with your RIGHT hand"])
    }
}
