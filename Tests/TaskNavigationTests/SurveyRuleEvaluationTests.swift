import Foundation
import TaskModel
import TaskNavigation
import Testing

/// SageResearch 4's survey rules (docs/task-format.md, "Survey rules"): every `testSurveyRule_*`
/// of its SurveyRuleTests as a row, then the comparisons one by one.
@Suite struct SurveyRuleEvaluationTests {
    static func rules(_ op1: SurveyRuleOperator, _ op3: SurveyRuleOperator, _ low: JSONValue, _ mid: JSONValue, _ high: JSONValue) -> [SurveyRule] {
        let names = op1 == .lessThan ? ("lessThan", "greaterThan") : ("lessThanEqual", "greaterThanEqual")
        return [
            SurveyRule(skipToIdentifier: names.0, matchingAnswer: low, ruleOperator: op1),
            SurveyRule(skipToIdentifier: "equal", matchingAnswer: mid, ruleOperator: .equal),
            SurveyRule(skipToIdentifier: names.1, matchingAnswer: high, ruleOperator: op3),
        ]
    }
    static let intRules = rules(.lessThan, .greaterThan, 1, 2, 3)
    static let intRulesOrEqual = rules(.lessThanEqual, .greaterThanEqual, 1, 2, 3)
    static let decRules = rules(.lessThan, .greaterThan, 1.0, 2.0, 3.0)
    static let decRulesOrEqual = rules(.lessThanEqual, .greaterThanEqual, 1.0, 2.0, 3.0)
    static let textRules = rules(.lessThan, .greaterThan, "beta", "charlie", "delta")
    static let textRulesOrEqual = rules(.lessThanEqual, .greaterThanEqual, "beta", "charlie", "delta")

    /// (Sage test, rules, answer type, answer value, expected target)
    static let sageTests: [(String, [SurveyRule], AnswerType, JSONValue?, String?)] = [
        ("Always", [SurveyRule(skipToIdentifier: "always", ruleOperator: .always)], .object, ["field1": "boo", "field2": 3], "always"),
        ("Integer_Equal", intRules, .integer, 2, "equal"),
        ("Integer_Equal_Default", [SurveyRule(skipToIdentifier: "equal", matchingAnswer: 3)], .integer, 3, "equal"),
        ("Integer_Skip_Default", [SurveyRule(skipToIdentifier: "skip")], .integer, .null, "skip"),
        ("Integer_LessThan", intRules, .integer, 0, "lessThan"),
        ("Integer_GreaterThan", intRules, .integer, 4, "greaterThan"),
        ("Integer_NotGreaterThan", intRules, .integer, 3, nil),
        ("Integer_NotLessThan", intRules, .integer, 1, nil),
        ("Integer_LessThanOrEqual", intRulesOrEqual, .integer, 1, "lessThanEqual"),
        ("Integer_NotEqual_True", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: 2, ruleOperator: .notEqual)], .integer, 3, "notEqual"),
        ("Integer_NotEqual_False", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: 2, ruleOperator: .notEqual)], .integer, 2, nil),
        ("Decimal_Equal", decRules, .number, 2.0000000000001, "equal"),
        ("Decimal_LessThan", decRules, .number, 0.0, "lessThan"),
        ("Decimal_GreaterThan", decRules, .number, 4.0, "greaterThan"),
        ("Decimal_NotGreaterThan", decRules, .number, 3.0, nil),
        ("Decimal_NotLessThan", decRules, .number, 1.0, nil),
        ("Decimal_LessThanOrEqual", decRulesOrEqual, .number, 1.0, "lessThanEqual"),
        ("Decimal_NotEqual_True", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: 2.0, ruleOperator: .notEqual)], .number, 3.0, "notEqual"),
        ("Decimal_NotEqual_False", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: 2.0, ruleOperator: .notEqual)], .number, 2.0, nil),
        ("String_Equal", textRules, .string, "charlie", "equal"),
        ("String_LessThan", textRules, .string, "alpha", "lessThan"),
        ("String_GreaterThan", textRules, .string, "gamma", "greaterThan"),
        ("String_NotGreaterThan", textRules, .string, "delta", nil),
        ("String_NotLessThan", textRules, .string, "beta", nil),
        ("String_LessThanOrEqual", textRulesOrEqual, .string, "beta", "lessThanEqual"),
        ("String_NotEqual_True", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: "charlie", ruleOperator: .notEqual)], .string, "hoover", "notEqual"),
        ("String_NotEqual_False", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: "charlie", ruleOperator: .notEqual)], .string, "charlie", nil),
        ("Boolean_Equal_True", [SurveyRule(skipToIdentifier: "equal", matchingAnswer: true, ruleOperator: .equal)], .boolean, true, "equal"),
        ("Boolean_Equal_False", [SurveyRule(skipToIdentifier: "equal", matchingAnswer: true, ruleOperator: .equal)], .boolean, false, nil),
        ("Boolean_NotEqual_True", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: true, ruleOperator: .notEqual)], .boolean, false, "notEqual"),
        ("Boolean_NotEqual_False", [SurveyRule(skipToIdentifier: "notEqual", matchingAnswer: true, ruleOperator: .notEqual)], .boolean, true, nil),
    ]

    @Test(arguments: sageTests.indices)
    func sageSurveyRuleTest(index: Int) {
        let (name, rules, type, value, expected) = Self.sageTests[index]
        let answer = SurveyRuleEvaluation.Answer(answerType: type, value: value)
        #expect(SurveyRuleEvaluation.navigationTarget(rules: rules, answer: answer) == expected, "testSurveyRule_\(name)")
    }

    static let cohortRules = [
        SurveyRule(matchingAnswer: "charlie", ruleOperator: .equal, cohort: "c"),
        SurveyRule(matchingAnswer: "delta", ruleOperator: .equal, cohort: "d"),
        SurveyRule(matchingAnswer: .null, cohort: "skip"),
        SurveyRule(ruleOperator: .always, cohort: "always"),
    ]

    @Test func cohortEqual() {
        let answer = SurveyRuleEvaluation.Answer(answerType: .string, value: "charlie")
        #expect(SurveyRuleEvaluation.navigationTarget(rules: Self.cohortRules, answer: answer) == nil)
        let change = SurveyRuleEvaluation.cohorts(rules: Self.cohortRules, answer: answer)
        #expect(change.add == ["c", "always"] && change.remove == ["d", "skip"])
    }

    @Test func cohortSkip() {
        let answer = SurveyRuleEvaluation.Answer(answerType: .string, value: nil)
        #expect(SurveyRuleEvaluation.navigationTarget(rules: Self.cohortRules, answer: answer) == nil)
        let change = SurveyRuleEvaluation.cohorts(rules: Self.cohortRules, answer: answer)
        #expect(change.add == ["skip", "always"] && change.remove == ["d", "c"])
    }

    /// (rule, answer type, answer value, matches)
    static let comparisons: [(SurveyRule, AnswerType?, JSONValue?, Bool)] = [
        (SurveyRule(matchingAnswer: 2.5, ruleOperator: .equal), .integer, 3, false),
        (SurveyRule(matchingAnswer: 2.5, ruleOperator: .greaterThan), .integer, 3, true),
        (SurveyRule(matchingAnswer: 5, ruleOperator: .equal), .string, "5", true),
        (SurveyRule(matchingAnswer: "Charlie", ruleOperator: .equal), .string, "charlie", false),
        (SurveyRule(matchingAnswer: "a", ruleOperator: .greaterThan), .string, "B", false),
        (SurveyRule(matchingAnswer: "3", ruleOperator: .equal), .integer, 3, false),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .equal), .integer, 2.0, true),
        (SurveyRule(matchingAnswer: 2.0, ruleOperator: .notEqual), .number, 2.0000000000001, true),
        (SurveyRule(matchingAnswer: 1, ruleOperator: .equal), .boolean, true, true),
        (SurveyRule(matchingAnswer: "x"), nil, "x", true),
        (SurveyRule(ruleOperator: .skip), .integer, nil, true),
        (SurveyRule(ruleOperator: .skip), .integer, 0, false),
        (SurveyRule(matchingAnswer: 0, ruleOperator: .equal), .integer, .null, false),
        (SurveyRule(ruleOperator: .always), .integer, .null, true),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .equal), .array(.integer), [1, 2], true),
        (SurveyRule(matchingAnswer: [3, 2], ruleOperator: .equal), .array(.integer), [1, 2], true),
        (SurveyRule(matchingAnswer: [3], ruleOperator: .equal), .array(.integer), [1, 2], false),
        (SurveyRule(matchingAnswer: [1, 2], ruleOperator: .notEqual), .array(.integer), [1, 2], false),
        (SurveyRule(matchingAnswer: [2, 1], ruleOperator: .notEqual), .array(.integer), [1, 2], true),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .otherThan), .array(.integer), [1, 3], true),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .otherThan), .array(.integer), [1, 2], false),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .lessThan), .array(.integer), [1], false),
        (SurveyRule(matchingAnswer: 2, ruleOperator: .otherThan), .integer, 3, true),
        (SurveyRule(matchingAnswer: "2020-01-01", ruleOperator: .lessThan), .dateTime(codingFormat: "yyyy-MM-dd"), "2019-12-31", true),
        (SurveyRule(matchingAnswer: "2020-01-01", ruleOperator: .equal), .dateTime(codingFormat: "yyyy-MM-dd"), "2020-01-01", true),
        (SurveyRule(matchingAnswer: ["a": 1], ruleOperator: .equal), .object, ["a": 1], false),
        (SurveyRule(matchingAnswer: 170, ruleOperator: .equal), .measurement(unit: "cm"), 170.000001, true),
    ]

    @Test(arguments: comparisons.indices)
    func comparison(index: Int) {
        let (rule, type, value, matches) = Self.comparisons[index]
        #expect(SurveyRuleEvaluation.matches(rule, answer: .init(answerType: type, value: value)) == matches, "case \(index)")
    }

    @Test func severalMatchingRulesNavigateNowhere() {
        let rules = [SurveyRule(skipToIdentifier: "a", matchingAnswer: 1, ruleOperator: .greaterThanEqual),
                     SurveyRule(skipToIdentifier: "b", matchingAnswer: 2, ruleOperator: .greaterThanEqual)]
        let answer = SurveyRuleEvaluation.Answer(answerType: .integer, value: 3)
        #expect(SurveyRuleEvaluation.navigationTarget(rules: rules, answer: answer) == nil)
        #expect(SurveyRuleEvaluation.navigationTarget(rules: rules, answer: .init(answerType: .integer, value: 1)) == "a")
    }

    @Test func ruleWithoutTargetExits() {
        let answer = SurveyRuleEvaluation.Answer(answerType: .integer, value: 1900)
        #expect(SurveyRuleEvaluation.navigationTarget(rules: [SurveyRule(matchingAnswer: 1900)], answer: answer) == "exit")
    }

    @Test func noAnswerResultTakesTheSkipActionsTarget() {
        let rules = [SurveyRule(skipToIdentifier: "always", ruleOperator: .always)]
        #expect(SurveyRuleEvaluation.navigationTarget(rules: rules, answer: nil, skipToIfNil: "bar") == "bar")
        #expect(SurveyRuleEvaluation.navigationTarget(rules: rules, answer: nil) == nil)
    }
}
