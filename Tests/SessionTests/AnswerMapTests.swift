import Foundation
import Testing
import TaskModel
@testable import Session

/// `answers.json` keys follow RSDDataArchive: `<section>_<collection>_<identifier>`.
@Suite struct AnswerMapTests {
    static let date = Date(timeIntervalSince1970: 1_508_218_089)

    static func answer(_ identifier: String, _ value: JSONValue?) -> AnyResult {
        AnyResult(AnswerResult(identifier: identifier, startDate: date, endDate: date, value: value))
    }

    static func collection(_ identifier: String, _ children: [AnyResult]) -> AnyResult {
        AnyResult(CollectionResult(identifier: identifier, startDate: date, endDate: date, children: children))
    }

    static func section(_ identifier: String, _ history: [AnyResult], async: [AnyResult] = []) -> AnyResult {
        AnyResult(SectionResult(identifier: identifier, startDate: date, endDate: date, stepHistory: history, asyncResults: async))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var history: [AnyResult]
        var asyncResults: [AnyResult] = []
        var expected: [String: JSONValue]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "task level answers keep their identifier",
             history: [answer("age", .integer(42))], expected: ["age": .integer(42)]),
        Case(name: "a section prefixes its answers",
             history: [section("walk", [answer("steps", .integer(10))])], expected: ["walk_steps": .integer(10)]),
        Case(name: "a collection prefixes its answers unless it has the answer's name",
             history: [collection("form", [answer("age", .integer(1)), answer("form", .string("x"))])],
             expected: ["form_age": .integer(1), "form": .string("x")]),
        Case(name: "section and collection",
             history: [section("health", [collection("form", [answer("smoker", .bool(false))])])],
             expected: ["health_form_smoker": .bool(false)]),
        Case(name: "nested sections use the innermost",
             history: [section("outer", [section("inner", [answer("a", .integer(1))])])],
             expected: ["inner_a": .integer(1)]),
        Case(name: "answers without a value are left out",
             history: [answer("none", nil), answer("null", .null)], expected: [:]),
        Case(name: "a later answer with the same key wins",
             history: [answer("mood", .integer(1)), answer("other", .integer(0)), answer("mood", .integer(2))],
             expected: ["mood": .integer(2), "other": .integer(0)]),
        Case(name: "async results count, after the step history",
             history: [answer("x", .integer(1))], asyncResults: [answer("abandonAssessment", .bool(true)), answer("x", .integer(2))],
             expected: ["x": .integer(2), "abandonAssessment": .bool(true)]),
        Case(name: "a nested task is a section level",
             history: [AnyResult(TaskResult(identifier: "heart", startDate: date, stepHistory: [answer("bpm", .integer(70))]))],
             expected: ["heart_bpm": .integer(70)]),
    ]

    @Test(arguments: cases) func flattening(_ row: Case) {
        let task = TaskResult(identifier: "T", startDate: Self.date, stepHistory: row.history, asyncResults: row.asyncResults)
        #expect(AnswerMap.answers(in: task) == row.expected)
    }
}
