extension QuestionStep {
    /// Reads a question from the step's keys as SageResearch 4 does (docs/task-format.md,
    /// "Question steps"): unknown keys are the front end's.
    init(decoding properties: [String: JSONValue], identifier: String, kind: Kind) throws(QuestionDecodingError) {
        self.init(identifier: identifier, kind: kind)
        isOptional = kind == .handSelection ? false : try Self.bool(properties["optional"], "optional") ?? true
        questionText = properties["title"]?.stringValue ?? properties["subtitle"]?.stringValue
            ?? properties["text"]?.stringValue ?? properties["detail"]?.stringValue
        surveyRules = try Self.rules(properties["surveyRules"])
        switch kind {
        case .simpleQuestion:
            inputItems = [try properties["inputItem"].map { v throws(QuestionDecodingError) in try Self.item(v, "inputItem") } ?? InputItem(kind: .string)]
        case .multipleInputQuestion:
            guard let items = properties["inputItems"]?.arrayValue else {
                throw QuestionDecodingError("inputItems", "a multipleInputQuestion needs an array of input items.")
            }
            for (index, item) in items.enumerated() { inputItems.append(try Self.item(item, "inputItems[\(index)]")) }
        case .choiceQuestion, .stringChoiceQuestion, .handSelection:
            baseType = kind == .choiceQuestion ? try Self.baseType(properties["baseType"]) : .string
            singleChoice = kind == .handSelection ? true : try Self.bool(properties["singleChoice"], "singleChoice") ?? true
            if kind == .handSelection, properties["choices"] == nil {
                choices = Self.handChoices
            } else {
                choices = try Self.choices(properties["choices"], "choices", plainStrings: kind == .stringChoiceQuestion)
            }
            for (index, choice) in choices.enumerated() {
                if let value = choice.value, value.baseType != baseType {
                    throw QuestionDecodingError("choices[\(index)].value", "a \(value.baseType.rawValue) where the question's baseType is \(baseType.rawValue); make every choice value a \(baseType.rawValue) or change baseType.")
                }
            }
        }
        if kind == .simpleQuestion || kind == .multipleInputQuestion, let box = properties["skipCheckbox"] {
            guard box.objectValue != nil else { throw QuestionDecodingError("skipCheckbox", "expected an object with a fieldLabel.") }
            skipCheckbox = SkipCheckbox(value: box["value"])
        }
    }

    private static func bool(_ value: JSONValue?, _ path: String) throws(QuestionDecodingError) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else { throw QuestionDecodingError(path, "expected true or false.") }
        return flag
    }

    private static func number(_ value: JSONValue?, _ path: String) throws(QuestionDecodingError) -> Double? {
        guard let value, value != .null else { return nil }
        guard let number = value.doubleValue else { throw QuestionDecodingError(path, "expected a number.") }
        return number
    }

    private static func string(_ value: JSONValue?, _ path: String) throws(QuestionDecodingError) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue else { throw QuestionDecodingError(path, "expected a string.") }
        return text
    }

    private static func baseType(_ value: JSONValue?) throws(QuestionDecodingError) -> AnswerType.BaseType {
        guard let name = try string(value, "baseType") else { return .string }
        guard let type = AnswerType.BaseType(rawValue: name) else {
            throw QuestionDecodingError("baseType", "\"\(name)\" is not a JSON type; use one of \(AnswerType.BaseType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return type
    }

    private static func rules(_ value: JSONValue?) throws(QuestionDecodingError) -> [SurveyRule] {
        guard let value else { return [] }
        guard let array = value.arrayValue else { throw QuestionDecodingError("surveyRules", "expected an array of rule objects.") }
        var rules: [SurveyRule] = []
        for (index, rule) in array.enumerated() {
            let path = "surveyRules[\(index)]"
            guard rule.objectValue != nil else { throw QuestionDecodingError(path, "expected a rule object.") }
            var op: SurveyRuleOperator?
            if let name = try string(rule["ruleOperator"], path + ".ruleOperator") {
                guard let known = SurveyRuleOperator(rawValue: name) else {
                    throw QuestionDecodingError(path + ".ruleOperator", "\"\(name)\" is not an operator; use one of \(SurveyRuleOperator.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                op = known
            }
            rules.append(SurveyRule(
                skipToIdentifier: try string(rule["skipToIdentifier"], path + ".skipToIdentifier"),
                matchingAnswer: rule["matchingAnswer"], ruleOperator: op,
                cohort: try string(rule["cohort"], path + ".cohort")))
        }
        return rules
    }

    private static func choices(_ value: JSONValue?, _ path: String, plainStrings: Bool) throws(QuestionDecodingError) -> [QuestionChoice] {
        guard let array = value?.arrayValue else { throw QuestionDecodingError(path, "expected an array of choices.") }
        var choices: [QuestionChoice] = []
        for (index, element) in array.enumerated() {
            let here = "\(path)[\(index)]"
            if plainStrings {
                guard let text = element.stringValue else { throw QuestionDecodingError(here, "expected a string.") }
                choices.append(QuestionChoice(value: .string(text), text: text))
            } else {
                guard element.objectValue != nil else { throw QuestionDecodingError(here, "expected a choice object with a value and a text.") }
                choices.append(QuestionChoice(value: element["value"], text: try string(element["text"], here + ".text"),
                                              isExclusive: try bool(element["exclusive"], here + ".exclusive") ?? false))
            }
        }
        return choices
    }

    private static func item(_ value: JSONValue, _ path: String) throws(QuestionDecodingError) -> InputItem {
        guard value.objectValue != nil else { throw QuestionDecodingError(path, "expected an input item object.") }
        guard let name = value["type"]?.stringValue else { throw QuestionDecodingError(path + ".type", "an input item needs a type.") }
        guard let kind = InputItem.Kind(rawValue: name) else {
            throw QuestionDecodingError(path + ".type", "\"\(name)\" is not an input item type; use one of \(InputItem.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        var item = InputItem(kind: kind, identifier: try string(value["identifier"], path + ".identifier"),
                             fieldLabel: value["fieldLabel"]?.stringValue,
                             isExclusive: try bool(value["exclusive"], path + ".exclusive") ?? false)
        let options = value["formatOptions"]
        let optionsPath = path + ".formatOptions"
        switch kind {
        case .integer, .decimal:
            item.numberRange = InputItem.NumberRange(
                minimum: try number(options?["minimumValue"], optionsPath + ".minimumValue"),
                maximum: try number(options?["maximumValue"], optionsPath + ".maximumValue"))
        case .year:
            item.numberRange = InputItem.NumberRange(
                minimum: try number(options?["minimumYear"], optionsPath + ".minimumYear"),
                maximum: try number(options?["maximumYear"], optionsPath + ".maximumYear"),
                allowPast: try bool(options?["allowPast"], optionsPath + ".allowPast") ?? true,
                allowFuture: try bool(options?["allowFuture"], optionsPath + ".allowFuture") ?? true)
        case .date, .dateTime, .time:
            item.codingFormat = try string(options?["codingFormat"], optionsPath + ".codingFormat")
            item.dateRange = InputItem.DateRange(
                minimum: try string(options?["minimumValue"] ?? options?["minimumDate"], optionsPath + ".minimumValue"),
                maximum: try string(options?["maximumValue"] ?? options?["maximumDate"], optionsPath + ".maximumValue"),
                allowPast: try bool(options?["allowPast"], optionsPath + ".allowPast") ?? true,
                allowFuture: try bool(options?["allowFuture"], optionsPath + ".allowFuture") ?? true)
        case .string:
            if let validator = value["regExValidator"] {
                item.pattern = try string(validator["pattern"], path + ".regExValidator.pattern")
                item.invalidMessage = validator["invalidMessage"]?.stringValue
            }
        case .choicePicker, .stringChoicePicker:
            item.choices = try choices(value["choices"], path + ".choices", plainStrings: kind == .stringChoicePicker)
        case .checkbox, .height, .weight:
            break
        }
        return item
    }
}
