import Foundation
public import TaskModel

/// SageResearch 4's survey rules as pure functions (docs/task-format.md, "Survey rules"):
/// where a question's answer navigates, and which cohorts it adds and removes.
public enum SurveyRuleEvaluation {
    /// A question's answer result as the rules see it: its `answerType` (nil reads as text)
    /// and its value (nil or JSON null when the question was left unanswered).
    public struct Answer: Sendable, Hashable {
        public var answerType: AnswerType?
        public var value: JSONValue?
        public init(answerType: AnswerType?, value: JSONValue?) {
            self.answerType = answerType
            self.value = value
        }
    }

    /// Where the rules send the participant after the question; nil when they do not navigate.
    ///
    /// Without an answer result (the step was skipped) the rules are not evaluated and the
    /// skip action's `skipToIfNil` is the answer. Otherwise each rule that has a
    /// `skipToIdentifier` or no cohort and matches gives its target (`exit` when it has none),
    /// and the target is taken only when exactly one rule gave one, as on iOS.
    public static func navigationTarget(rules: [SurveyRule], answer: Answer?, skipToIfNil: String? = nil) -> String? {
        guard let answer else { return skipToIfNil }
        let targets = rules.compactMap { rule -> String? in
            if rule.cohort != nil, rule.skipToIdentifier == nil { return nil }
            return matches(rule, answer: answer) ? rule.skipToIdentifier ?? "exit" : nil
        }
        return targets.count == 1 ? targets[0] : nil
    }

    /// The cohorts the rules with a `cohort` add (those that match) and remove (the others).
    public static func cohorts(rules: [SurveyRule], answer: Answer?) -> (add: Set<String>, remove: Set<String>) {
        var add: Set<String> = [], remove: Set<String> = []
        for rule in rules {
            guard let cohort = rule.cohort else { continue }
            if matches(rule, answer: answer) { add.insert(cohort) } else { remove.insert(cohort) }
        }
        return (add, remove)
    }

    /// Whether `rule` matches `answer` (nil: there is no answer result).
    public static func matches(_ rule: SurveyRule, answer: Answer?) -> Bool {
        let op = rule.effectiveOperator
        if op == .always { return true }
        guard let answer, let value = answer.value, value != .null else { return op == .skip }
        if op == .skip { return false }
        let type = answer.answerType ?? .string
        guard let matching = rule.matchingAnswer, let expected = Comparand(matching, as: type),
              let actual = Comparand(value, as: type) else { return false }
        return compare(actual, op, expected, type: type)
    }

    /// A value converted with the answer type, as SageResearch converts both sides.
    enum Comparand: Equatable {
        case text(String)
        case number(Double)
        case date(Date)
        case list([Comparand])

        init?(_ value: JSONValue, as type: AnswerType) {
            switch type {
            case .array(let base):
                var elements: [Comparand] = []
                for element in value.arrayValue ?? [value] {
                    guard let converted = Comparand(element, as: AnswerType(base)) else { return nil }
                    elements.append(converted)
                }
                self = .list(elements)
            case .dateTime:
                guard let text = value.stringValue, let date = DateCoding.date(from: text) else { return nil }
                self = .date(date)
            case .string:
                switch value {
                case .string(let text): self = .text(text)
                case .integer(let number): self = .text(String(number))
                case .number(let number): self = .text(number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number))
                case .bool(let flag): self = .text(String(flag))
                case .null, .array, .object: return nil
                }
            case .integer, .number, .boolean, .object, .null, .measurement:
                switch value {
                case .integer(let number): self = .number(Double(number))
                case .number(let number): self = .number(number)
                case .bool(let flag): self = .number(flag ? 1 : 0)
                default: return nil
                }
            }
        }

        static func < (lhs: Comparand, rhs: Comparand) -> Bool? {
            switch (lhs, rhs) {
            case let (.text(a), .text(b)): Array(a.unicodeScalars.map(\.value)).lexicographicallyPrecedes(b.unicodeScalars.map(\.value))
            case let (.number(a), .number(b)): a < b
            case let (.date(a), .date(b)): a < b
            default: nil
            }
        }
    }

    /// Accuracy of `eq` on decimal answers (SageResearch's default).
    static let accuracy = 0.00001

    static func compare(_ actual: Comparand, _ op: SurveyRuleOperator, _ expected: Comparand, type: AnswerType) -> Bool {
        if case .list(let answers) = actual {
            let wanted: [Comparand] = if case .list(let list) = expected { list } else { [expected] }
            switch op {
            case .equal: return wanted.contains { answers.contains($0) }
            case .notEqual: return answers != wanted
            case .otherThan: return !wanted.contains { answers.contains($0) }
            default: return false
            }
        }
        switch op {
        case .equal:
            if case .number = type, case .number(let a) = actual, case .number(let m) = expected {
                return a >= m - accuracy && a <= m + accuracy
            }
            if case .measurement = type, case .number(let a) = actual, case .number(let m) = expected {
                return a >= m - accuracy && a <= m + accuracy
            }
            return actual == expected
        case .notEqual, .otherThan: return actual != expected
        case .lessThan: return (actual < expected) ?? false
        case .greaterThan: return (expected < actual) ?? false
        case .lessThanEqual: return (expected < actual).map { !$0 } ?? false
        case .greaterThanEqual: return (actual < expected).map { !$0 } ?? false
        case .skip, .always: return false
        }
    }
}
