import Foundation
import TaskModel
import Testing

/// Lines typed in the terminal front end turned into answers (QuestionStep+Typed), then checked
/// as the daemon checks them: what is typed right is stored, what is typed wrong is sent as typed
/// and refused at a coding path.
@Suite struct TypedAnswerTests {
    typealias Q = QuestionAnswerTests

    /// (question, typed lines, the answers sent, the stored value or nil, the refused coding path or nil)
    static let cases: [(String, [String], [(String, JSONValue)], JSONValue?, String?)] = [
        (Q.integer, ["3"], [("n", 3)], 3, nil),
        (Q.integer, [" -2 "], [("n", -2)], -2, nil),
        (Q.integer, ["three"], [("n", "three")], nil, "answers[0].value"),
        (Q.integer, [""], [], nil, "answers"),
        (Q.decimal, ["1.25"], [("d", 1.25)], .number(1.25), nil),
        (Q.text, ["ABC"], [("t", "ABC")], "ABC", nil),
        (Q.single, ["2"], [("one", "Bravo")], "Bravo", nil),
        (Q.single, ["Alfa"], [("one", "Alfa")], "Alfa", nil),
        (Q.single, ["3"], [("one", "3")], nil, "answers[0].value"),
        (Q.multiple, ["2,1"], [("many", [2, 1])], [2, 1], nil),
        (Q.multiple, ["3"], [("many", [0])], [0], nil),
        (Q.form, ["170", "65.5", "y"], [("height", 170.0), ("weight", 65.5), ("ok", true)],
         ["height": 170.0, "weight": 65.5, "ok": true], nil),
        (Q.form, ["170", "", "no"], [("height", 170.0), ("ok", false)], nil, nil),
        (Q.optionalBool, ["2"], [("b", false)], false, nil),
    ]

    @Test(arguments: cases.indices)
    func typedLinesBecomeAnswers(_ index: Int) throws {
        let (json, typed, expected, stored, refusedAt) = Self.cases[index]
        let question = try Q.question(json)
        let answers = question.answers(typed: typed)
        #expect(answers.map(\.identifier) == expected.map(\.0))
        #expect(answers.map(\.value) == expected.map(\.1))
        do {
            let value = try question.answerValue(from: answers, now: Q.now)
            #expect(refusedAt == nil, "accepted \(String(describing: value))")
            if let stored { #expect(value == stored) }
        } catch {
            #expect(error.codingPath == refusedAt, "\(error)")
        }
    }

    @Test func fieldsFollowTheQuestion() throws {
        #expect(try Q.question(Q.form).typedFields.map(\.label) == ["height", "weight", "OK"])
        let multiple = try #require(try Q.question(Q.multiple).typedFields.first)
        #expect(multiple.multipleChoices && multiple.choices.count == 3 && multiple.kind == nil)
        #expect(try Q.question(Q.integer).typedFields.map(\.kind) == [.integer])
    }
}
