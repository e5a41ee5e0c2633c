import Foundation

/// Answers typed on a keyboard, for a terminal front end (`activetaskctl run`, docs/protocol.md,
/// "Questions"): one line of text per field, turned into the answers the daemon checks. Nothing
/// is judged here; a wrong answer is sent as typed and the daemon's refusal says what to fix.
extension QuestionStep {
    /// One line a terminal asks for.
    public struct TypedField: Sendable, Hashable {
        /// The answer's name: the question's, or an input item's on a multiple-input question.
        public var identifier: String
        /// What to ask: the item's label, else the answer's name.
        public var label: String
        /// The choices, numbered from 1 on screen; empty for a free answer.
        public var choices: [QuestionChoice]
        /// True when several choices may be typed (`1,3`).
        public var multipleChoices: Bool
        /// The kind of value expected; nil for a choice question.
        public var kind: InputItem.Kind?
    }

    /// The fields to type, in order: one for a simple or choice question, one per input item of a
    /// multiple-input question.
    public var typedFields: [TypedField] {
        switch kind {
        case .multipleInputQuestion:
            return inputItems.enumerated().map { index, item in
                let name = item.identifier ?? "\(identifier)_\(index)"
                return TypedField(identifier: name, label: item.fieldLabel ?? name, choices: item.choices, multipleChoices: false, kind: item.kind)
            }
        case .simpleQuestion:
            let item = inputItems.first
            return [TypedField(identifier: identifier, label: item?.fieldLabel ?? questionText ?? identifier,
                               choices: item?.choices ?? [], multipleChoices: false, kind: item?.kind ?? .string)]
        case .choiceQuestion, .stringChoiceQuestion, .handSelection:
            return [TypedField(identifier: identifier, label: questionText ?? identifier, choices: choices,
                               multipleChoices: !singleChoice, kind: nil)]
        }
    }

    /// The answers for `typed` (one line per field of `typedFields`, in order). An empty line is
    /// no answer. Choice numbers (`2`, or `1,3` where several are allowed) give the choices'
    /// values; other text is sent as typed, so the daemon names what is wrong with it. Numbers
    /// and yes/no are read by the field's kind.
    public func answers(typed: [String]) -> [SubmittedAnswer] {
        zip(typedFields, typed).compactMap { field, line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            return SubmittedAnswer(identifier: field.identifier, value: Self.value(typed: text, for: field))
        }
    }

    static func value(typed text: String, for field: TypedField) -> JSONValue {
        if !field.choices.isEmpty {
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let picked = parts.compactMap { Int($0) }.filter { field.choices.indices.contains($0 - 1) }
            if picked.count == parts.count, !picked.isEmpty {
                let values = picked.map { field.choices[$0 - 1].value ?? .null }
                return field.multipleChoices ? .array(values) : (values.count == 1 ? values[0] : .array(values))
            }
            return field.multipleChoices ? .array(parts.map { .string($0) }) : .string(text)
        }
        switch field.kind {
        case .integer, .year:
            if let number = Int64(text) { return .integer(number) }
        case .decimal, .height, .weight:
            if let number = Double(text) { return .number(number) }
        case .checkbox:
            switch text.lowercased() {
            case "y", "yes", "true": return .bool(true)
            case "n", "no", "false": return .bool(false)
            default: break
            }
        default:
            break
        }
        return .string(text)
    }
}
