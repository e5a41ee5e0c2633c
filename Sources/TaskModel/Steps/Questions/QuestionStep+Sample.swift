public import Foundation

extension QuestionStep {
    /// An answer the question accepts, for a front end that answers by itself (`activetaskctl
    /// run --auto`): the first choice, the smallest value allowed, today, `true`; nil for an
    /// optional question, or when no such value is known (a text with a pattern).
    public func sampleAnswer(now: Date = Date()) -> JSONValue? {
        guard !isOptional else { return nil }
        let value: JSONValue?
        switch kind {
        case .choiceQuestion, .stringChoiceQuestion, .handSelection:
            let first = choices.first { $0.value != nil && !$0.isExclusive } ?? choices.first { $0.value != nil }
            value = first?.value.map { singleChoice ? $0 : .array([$0]) }
        case .simpleQuestion:
            value = inputItems.first.flatMap { $0.sample(now: now) }
        case .multipleInputQuestion:
            value = inputItems.indices.first { inputItems[$0].sample(now: now) != nil }
                .map { .object([key(ofItemAt: $0): inputItems[$0].sample(now: now)!]) }
        }
        guard let value, (try? answerValue(from: [.init(identifier: identifier, value: value)], now: now)) != nil else { return nil }
        return value
    }
}

extension InputItem {
    func sample(now: Date) -> JSONValue? {
        let candidate: JSONValue?
        switch kind {
        case .string: candidate = pattern == nil ? .string("") : nil
        case .integer, .decimal, .height, .weight:
            let number = numberRange?.minimum ?? min(0, numberRange?.maximum ?? 0)
            candidate = kind == .integer ? .integer(Int64(number.rounded(.up))) : .number(number)
        case .year:
            candidate = .integer(Int64(numberRange?.minimum ?? Double(Calendar(identifier: .gregorian).component(.year, from: now))))
        case .date, .dateTime, .time:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.dateFormat = effectiveCodingFormat
            candidate = .string(dateRange?.minimum ?? formatter.string(from: now))
        case .checkbox: candidate = .bool(true)
        case .choicePicker, .stringChoicePicker: candidate = choices.lazy.compactMap(\.value).first
        }
        guard let candidate, (try? check(candidate, path: "", now: now)) != nil else { return nil }
        return candidate
    }
}
