public import Foundation

extension QuestionStep {
    /// One answer as a front end sends it: named after the question (or, on a multiple-input
    /// question, after an input item).
    public struct SubmittedAnswer: Sendable, Hashable {
        public var identifier: String
        public var value: JSONValue
        public init(identifier: String, value: JSONValue) {
            self.identifier = identifier
            self.value = value
        }
    }

    /// The value of the step's answer result built from `answers` as SageResearch builds it
    /// (docs/task-format.md, "Answers"), or nil when the question was left unanswered. Refuses
    /// an answer that names no question or item, has the wrong type, is out of range, is a
    /// choice that is not offered, or is missing from a required question.
    public func answerValue(from answers: [SubmittedAnswer], now: Date = Date()) throws(AnswerRejection) -> JSONValue? {
        let value: JSONValue?
        if kind == .multipleInputQuestion {
            value = try multipleInputValue(answers, now: now)
        } else {
            if answers.count > 1 {
                throw AnswerRejection("answers[1]", "The question \"\(identifier)\" takes one answer, named \"\(identifier)\"; send a single answer.")
            }
            if let answer = answers.first {
                let names = [identifier] + (kind == .simpleQuestion ? inputItems.compactMap(\.identifier) : [])
                guard names.contains(answer.identifier) else {
                    throw AnswerRejection("answers[0].identifier", "The question \"\(identifier)\" has no answer named \"\(answer.identifier)\"; name the answer \"\(identifier)\".")
                }
            }
            let sent = answers.first.map(\.value).flatMap { $0 == .null ? nil : $0 }
            if let sent {
                value = isChoiceQuestion ? try choiceValue(sent, path: "answers[0].value")
                    : try simpleValue(sent, path: "answers[0].value", now: now)
            } else {
                value = nil
            }
        }
        if value == nil, !isOptional {
            throw AnswerRejection("answers", "The question \"\(identifier)\" is required; send an answer named \"\(identifier)\" before going forward.")
        }
        return value
    }

    private func simpleValue(_ value: JSONValue, path: String, now: Date) throws(AnswerRejection) -> JSONValue {
        if let box = skipCheckbox, let boxValue = box.value, value == boxValue { return value }
        return try inputItems[0].check(value, path: path, now: now)
    }

    private func choiceValue(_ value: JSONValue, path: String) throws(AnswerRejection) -> JSONValue {
        if singleChoice {
            guard let choice = offered(value) else {
                throw AnswerRejection(path, "\(value.shortDescription) is not a choice of \"\(identifier)\"; send one of \(choiceList).")
            }
            return choice
        }
        guard let elements = value.arrayValue else {
            throw AnswerRejection(path, "The question \"\(identifier)\" takes several choices: send an array of \(choiceList).")
        }
        var chosen: [JSONValue] = []
        var exclusive: JSONValue?
        for (index, element) in elements.enumerated() {
            guard let choice = offered(element) else {
                throw AnswerRejection("\(path)[\(index)]", "\(element.shortDescription) is not a choice of \"\(identifier)\"; send only \(choiceList).")
            }
            guard !chosen.contains(choice) else {
                throw AnswerRejection("\(path)[\(index)]", "\(element.shortDescription) is chosen twice; send each choice once.")
            }
            if choices.contains(where: { $0.value == choice && $0.isExclusive }) { exclusive = choice }
            chosen.append(choice)
        }
        if let exclusive, chosen.count > 1 {
            throw AnswerRejection(path, "\(exclusive.shortDescription) excludes every other choice of \"\(identifier)\"; send it alone.")
        }
        return .array(chosen)
    }

    /// The offered choice value equal to `value` (an integer and a number of the same value are equal).
    private func offered(_ value: JSONValue) -> JSONValue? {
        choices.lazy.compactMap(\.value).first { $0 == value || ($0.doubleValue != nil && $0.doubleValue == value.doubleValue) }
    }

    private var choiceList: String {
        choices.compactMap(\.value).map(\.shortDescription).joined(separator: ", ")
    }

    private func multipleInputValue(_ answers: [SubmittedAnswer], now: Date) throws(AnswerRejection) -> JSONValue? {
        var submitted: [(key: String, value: JSONValue, path: String, namePath: String)] = []
        if answers.count == 1, answers[0].identifier == identifier, let members = answers[0].value.objectValue {
            submitted = members.sorted { $0.key < $1.key }.map { ($0.key, $0.value, "answers[0].value.\($0.key)", "answers[0].value.\($0.key)") }
        } else {
            submitted = answers.enumerated().map { ($1.identifier, $1.value, "answers[\($0)].value", "answers[\($0)].identifier") }
        }
        let keys = inputItems.indices.map(key(ofItemAt:))
        var object: [String: JSONValue] = [:]
        for answer in submitted {
            guard let index = keys.firstIndex(of: answer.key) else {
                throw AnswerRejection(answer.namePath, "The question \"\(identifier)\" has no input item \"\(answer.key)\"; name answers after its items: \(keys.joined(separator: ", ")).")
            }
            guard object[answer.key] == nil else {
                throw AnswerRejection(answer.path, "The item \"\(answer.key)\" is answered twice; send it once.")
            }
            guard answer.value != .null else { continue }
            object[answer.key] = try inputItems[index].check(answer.value, path: answer.path, now: now)
        }
        let exclusive = inputItems.indices.filter { inputItems[$0].isExclusive && object[keys[$0]] != nil }
        if let first = exclusive.first, object.count > 1 {
            throw AnswerRejection("answers", "The item \"\(keys[first])\" excludes the other items of \"\(identifier)\"; answer it alone.")
        }
        return object.isEmpty ? nil : .object(object)
    }
}

extension InputItem {
    /// `value` (not null) as this item stores it, or why it does not fit.
    func check(_ value: JSONValue, path: String, now: Date) throws(AnswerRejection) -> JSONValue {
        let name = identifier.map { "\"\($0)\"" } ?? "the \(kind.rawValue) item"
        switch kind {
        case .string:
            guard let text = value.stringValue else { throw wrongType(value, path, "text") }
            if let pattern {
                let matches = (try? NSRegularExpression(pattern: pattern))?
                    .numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) ?? 0
                guard matches == 1 else {
                    throw AnswerRejection(path, invalidMessage.map { "\($0) (\(name) must match \(pattern))" } ?? "\(value.shortDescription) does not match the pattern \(pattern) of \(name); send text that matches it.")
                }
            }
            return value
        case .integer, .year:
            guard let number = value.doubleValue, number.rounded(.towardZero) == number, abs(number) < 9.0e15 else {
                throw wrongType(value, path, "a whole number")
            }
            try checkRange(number, path: path, now: now)
            return .integer(Int64(number))
        case .decimal, .height, .weight:
            guard let number = value.doubleValue, number.isFinite else { throw wrongType(value, path, "a number") }
            if kind != .decimal, number < 0 {
                throw AnswerRejection(path, "\(value.shortDescription) is not a \(kind == .height ? "height" : "weight"); send a number of \(kind == .height ? "centimetres" : "kilograms") of at least 0.")
            }
            try checkRange(number, path: path, now: now)
            return .number(number)
        case .date, .dateTime, .time:
            guard let text = value.stringValue else { throw wrongType(value, path, "a date written \(effectiveCodingFormat)") }
            guard let date = DateCoding.date(from: text, format: effectiveCodingFormat) else {
                throw AnswerRejection(path, "\"\(text)\" is not a date written \(effectiveCodingFormat); send \(name) in that format.")
            }
            try checkRange(date, path: path, now: now)
            return value
        case .checkbox:
            guard case .bool = value else { throw wrongType(value, path, "true or false") }
            return value
        case .choicePicker, .stringChoicePicker:
            guard let choice = choices.lazy.compactMap(\.value).first(where: { $0 == value || ($0.doubleValue != nil && $0.doubleValue == value.doubleValue) }) else {
                throw AnswerRejection(path, "\(value.shortDescription) is not a choice of \(name); send one of \(choices.compactMap(\.value).map(\.shortDescription).joined(separator: ", ")).")
            }
            return choice
        }
    }

    private func wrongType(_ value: JSONValue, _ path: String, _ expected: String) -> AnswerRejection {
        AnswerRejection(path, "\(value.shortDescription) is not \(expected); \(identifier.map { "\"\($0)\"" } ?? "this \(kind.rawValue) item") takes \(expected).")
    }

    private func checkRange(_ number: Double, path: String, now: Date) throws(AnswerRejection) {
        guard var range = numberRange else { return }
        if kind == .year {
            let year = Double(Calendar(identifier: .gregorian).component(.year, from: now))
            if range.minimum == nil, !range.allowPast { range.minimum = year }
            if range.maximum == nil, !range.allowFuture { range.maximum = year }
        }
        let shown = number.rounded() == number ? String(Int64(number)) : String(number)
        if let minimum = range.minimum, number < minimum {
            throw AnswerRejection(path, "\(shown) is less than the minimum \(Self.format(minimum)); send a value from \(Self.format(minimum))\(range.maximum.map { " to \(Self.format($0))" } ?? " up").")
        }
        if let maximum = range.maximum, number > maximum {
            throw AnswerRejection(path, "\(shown) is more than the maximum \(Self.format(maximum)); send a value\(range.minimum.map { " from \(Self.format($0))" } ?? "") up to \(Self.format(maximum)).")
        }
    }

    private func checkRange(_ date: Date, path: String, now: Date) throws(AnswerRejection) {
        let format = effectiveCodingFormat
        func bound(_ text: String?) -> Date? {
            text.flatMap { DateCoding.date(from: $0, format: format) ?? Timestamp.date(from: $0) }
        }
        // Today written in the item's format: a date answer of today is neither past nor future.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = format
        let today = DateCoding.date(from: formatter.string(from: now), format: format) ?? now
        let minimum = bound(dateRange?.minimum) ?? (dateRange?.allowPast == false ? today : nil)
        let maximum = bound(dateRange?.maximum) ?? (dateRange?.allowFuture == false ? today : nil)
        if let minimum, date < minimum {
            throw AnswerRejection(path, "The date is before the earliest allowed, \(formatter.string(from: minimum)); send a later one.")
        }
        if let maximum, date > maximum {
            throw AnswerRejection(path, "The date is after the latest allowed, \(formatter.string(from: maximum)); send an earlier one.")
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 9.0e15 ? String(Int64(number)) : String(number)
    }
}

extension JSONValue {
    /// The value as a short JSON-like text for messages.
    var shortDescription: String {
        switch self {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .string(let text): "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
