import Foundation
import TaskModel
import Testing

/// Question steps decoded from their JSON, and the answers a front end sends checked against
/// them (docs/task-format.md, "Question steps").
@Suite struct QuestionAnswerTests {
    /// A fixed now: 2025-10-09 (year 2025).
    static let now = Date(timeIntervalSince1970: 1_760_000_000)

    static func question(_ json: String) throws -> QuestionStep {
        let properties = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).objectValue)
        let step = Step(identifier: properties["identifier"]?.stringValue ?? "q", type: StepType(rawValue: properties["type"]?.stringValue ?? ""),
                        kind: .ui, properties: properties)
        return try #require(try step.question())
    }

    static let integer = #"{"identifier": "n", "type": "simpleQuestion", "optional": false, "inputItem": {"type": "integer", "formatOptions": {"minimumValue": -2, "maximumValue": 3}}}"#
    static let decimal = #"{"identifier": "d", "type": "simpleQuestion", "inputItem": {"type": "decimal", "formatOptions": {"maximumValue": 1.5}}}"#
    static let year = #"{"identifier": "y", "type": "simpleQuestion", "optional": false, "inputItem": {"type": "year", "formatOptions": {"allowFuture": false, "minimumYear": 1900}}}"#
    static let text = #"{"identifier": "t", "type": "simpleQuestion", "inputItem": {"type": "string", "regExValidator": {"pattern": "^[A-Z]{3}$", "invalidMessage": "Three capitals."}}}"#
    static let date = #"{"identifier": "dt", "type": "simpleQuestion", "inputItem": {"type": "date", "formatOptions": {"allowFuture": false}}}"#
    static let single = #"{"identifier": "one", "type": "stringChoiceQuestion", "optional": false, "choices": ["Alfa", "Bravo"]}"#
    static let multiple = #"{"identifier": "many", "type": "choiceQuestion", "singleChoice": false, "baseType": "integer", "optional": false, "choices": [{"value": 1, "text": "A"}, {"value": 2, "text": "B"}, {"value": 0, "text": "None", "exclusive": true}]}"#
    static let form = #"{"identifier": "hw", "type": "multipleInputQuestion", "optional": false, "inputItems": [{"type": "height", "identifier": "height"}, {"type": "weight", "identifier": "weight"}, {"type": "checkbox", "identifier": "ok", "fieldLabel": "OK"}]}"#
    static let hand = #"{"identifier": "handSelection", "type": "handSelection", "optional": true}"#
    static let optionalBool = #"{"identifier": "b", "type": "choiceQuestion", "baseType": "boolean", "choices": [{"value": true, "text": "Yes"}, {"value": false, "text": "No"}]}"#

    /// (question, answers as identifier/value, the stored value or nil, the refused coding path or nil)
    static let cases: [(String, [(String, JSONValue)], JSONValue?, String?)] = [
        (integer, [("n", 3)], 3, nil),
        (integer, [("n", 2.0)], 2, nil),
        (integer, [("n", 4)], nil, "answers[0].value"),
        (integer, [("n", -3)], nil, "answers[0].value"),
        (integer, [("n", 2.5)], nil, "answers[0].value"),
        (integer, [("n", "2")], nil, "answers[0].value"),
        (integer, [], nil, "answers"),
        (integer, [("n", .null)], nil, "answers"),
        (integer, [("other", 1)], nil, "answers[0].identifier"),
        (integer, [("n", 1), ("n", 2)], nil, "answers[1]"),
        (decimal, [("d", 1)], .number(1), nil),
        (decimal, [("d", 1.6)], nil, "answers[0].value"),
        (decimal, [], nil, nil),
        (decimal, [("d", true)], nil, "answers[0].value"),
        (year, [("y", 1970)], 1970, nil),
        (year, [("y", 2025)], 2025, nil),
        (year, [("y", 2026)], nil, "answers[0].value"),
        (year, [("y", 1899)], nil, "answers[0].value"),
        (text, [("t", "ABC")], "ABC", nil),
        (text, [("t", "abc")], nil, "answers[0].value"),
        (text, [("t", 5)], nil, "answers[0].value"),
        (date, [("dt", "2020-02-29")], "2020-02-29", nil),
        (date, [("dt", "2099-01-01")], nil, "answers[0].value"),
        (date, [("dt", "29/02/2020")], nil, "answers[0].value"),
        (single, [("one", "Bravo")], "Bravo", nil),
        (single, [("one", "Charlie")], nil, "answers[0].value"),
        (single, [("one", ["Alfa"])], nil, "answers[0].value"),
        (multiple, [("many", [2, 1])], [2, 1], nil),
        (multiple, [("many", [0])], [0], nil),
        (multiple, [("many", [])], [], nil),
        (multiple, [("many", [1, 0])], nil, "answers[0].value"),
        (multiple, [("many", [1, 1])], nil, "answers[0].value[1]"),
        (multiple, [("many", [7])], nil, "answers[0].value[0]"),
        (multiple, [("many", 1)], nil, "answers[0].value"),
        (form, [("height", 170.5), ("ok", true)], ["height": 170.5, "ok": true], nil),
        (form, [("hw", ["weight": 3])], ["weight": .number(3)], nil),
        (form, [("height", -1)], nil, "answers[0].value"),
        (form, [("ok", "yes")], nil, "answers[0].value"),
        (form, [("age", 3)], nil, "answers[0].identifier"),
        (form, [("hw", ["age": 3])], nil, "answers[0].value.age"),
        (form, [("height", .null)], nil, "answers"),
        (hand, [("handSelection", "both")], "both", nil),
        (hand, [("handSelection", "feet")], nil, "answers[0].value"),
        (hand, [], nil, "answers"),
        (optionalBool, [("b", false)], false, nil),
        (optionalBool, [("b", 0)], nil, "answers[0].value"),
    ]

    @Test(arguments: cases.indices)
    func answerIsStoredOrRefused(index: Int) throws {
        let (json, answers, stored, refusedAt) = Self.cases[index]
        let question = try Self.question(json)
        do throws(AnswerRejection) {
            let value = try question.answerValue(from: answers.map { .init(identifier: $0.0, value: $0.1) }, now: Self.now)
            #expect(refusedAt == nil, "case \(index) was accepted as \(String(describing: value))")
            #expect(value == stored, "case \(index)")
        } catch {
            #expect(error.codingPath == refusedAt, "case \(index): \(error.message)")
            #expect(error.message.hasSuffix(".") || error.message.hasSuffix(")"), "case \(index): \(error.message)")
        }
    }

    /// (question, the answer type object of its result)
    static let answerTypes: [(String, JSONValue)] = [
        (integer, ["type": "integer"]),
        (decimal, ["type": "number"]),
        (year, ["type": "integer"]),
        (text, ["type": "string"]),
        (date, ["type": "date-time", "codingFormat": "yyyy-MM-dd"]),
        (single, ["type": "string"]),
        (multiple, ["type": "array", "baseType": "integer"]),
        (form, ["type": "object"]),
        (hand, ["type": "string"]),
        (optionalBool, ["type": "boolean"]),
    ]

    @Test(arguments: answerTypes.indices)
    func answerTypeIsSageResearchs(index: Int) throws {
        #expect(try Self.question(Self.answerTypes[index].0).answerType.json == Self.answerTypes[index].1)
    }

    @Test func defaultsAreSageResearchs() throws {
        let hand = try Self.question(Self.hand)
        #expect(!hand.isOptional && hand.singleChoice && hand.choices.compactMap(\.value) == ["left", "right", "both"])
        let decimal = try Self.question(Self.decimal)
        #expect(decimal.isOptional)
        #expect(try Self.question(Self.single).choices.map(\.text) == ["Alfa", "Bravo"])
    }

    /// (question JSON that does not decode, the coding path named)
    static let undecodable: [(String, String)] = [
        (#"{"identifier": "q", "type": "choiceQuestion", "baseType": "number", "choices": [{"value": 1, "text": "one"}]}"#, "choices[0].value"),
        (#"{"identifier": "q", "type": "simpleQuestion", "inputItem": {"type": "slider"}}"#, "inputItem.type"),
        (#"{"identifier": "q", "type": "multipleInputQuestion"}"#, "inputItems"),
        (#"{"identifier": "q", "type": "simpleQuestion", "surveyRules": [{"ruleOperator": "between"}]}"#, "surveyRules[0].ruleOperator"),
        (#"{"identifier": "q", "type": "stringChoiceQuestion", "choices": [1]}"#, "choices[0]"),
    ]

    @Test(arguments: undecodable.indices)
    func badQuestionNamesItsKey(index: Int) {
        let (json, path) = Self.undecodable[index]
        do {
            _ = try Self.question(json)
            Issue.record("case \(index) decoded")
        } catch let error as QuestionDecodingError {
            #expect(error.codingPath == path)
        } catch {
            Issue.record("case \(index): \(error)")
        }
    }

    @Test func sampleAnswersAreAccepted() throws {
        for json in [Self.integer, Self.year, Self.single, Self.multiple, Self.form, Self.hand] {
            let question = try Self.question(json)
            let sample = try #require(question.sampleAnswer(now: Self.now), "\(question.identifier)")
            #expect(try question.answerValue(from: [.init(identifier: question.identifier, value: sample)], now: Self.now) != nil)
        }
    }
}
