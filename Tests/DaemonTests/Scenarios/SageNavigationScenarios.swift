/// SageResearch 4's `SurveyRuleTests` (every `testSurveyRule_*`), the `TaskControllerTests` that
/// need cohorts or abbreviated instructions, MotorControl's abbreviated-instruction tests, and
/// the jumps survey rules make, as scenarios for the daemon (docs/task-format.md, "Survey
/// rules"). A survey test's task is instruction1, instruction2, the question, `next` (where no
/// rule leads), then one instruction per rule target; each ends the run (`exit`).
enum SageNavigationScenarios {
    static let targets = ["lessThan", "equal", "greaterThan", "lessThanEqual", "greaterThanEqual", "notEqual", "always", "skip"]

    /// The survey task around `question` (a step JSON with identifier `q`).
    static func surveyTask(_ question: String) -> String {
        let ends = (["next"] + targets).map { #"{"identifier": "\#($0)", "type": "instruction", "nextStepIdentifier": "exit"}"# }
        return #"{"identifier": "boobaloo", "type": "assessment", "steps": [{"identifier": "instruction1", "type": "instruction"}, {"identifier": "instruction2", "type": "instruction"}, \#(question), \#(ends.joined(separator: ", "))]}"#
    }

    static func rules(_ low: String, _ mid: String, _ high: String, orEqual: Bool) -> String {
        let (op1, op3, t1, t3) = orEqual ? ("le", "ge", "lessThanEqual", "greaterThanEqual") : ("lt", "gt", "lessThan", "greaterThan")
        return #"[{"skipToIdentifier": "\#(t1)", "matchingAnswer": \#(low), "ruleOperator": "\#(op1)"}, {"skipToIdentifier": "equal", "matchingAnswer": \#(mid), "ruleOperator": "eq"}, {"skipToIdentifier": "\#(t3)", "matchingAnswer": \#(high), "ruleOperator": "\#(op3)"}]"#
    }

    static func simple(_ item: String, _ rules: String) -> String {
        #"{"identifier": "q", "type": "simpleQuestion", "inputItem": {"type": "\#(item)"}, "surveyRules": \#(rules)}"#
    }

    static let integerRules = simple("integer", rules("1", "2", "3", orEqual: false))
    static let integerRulesOrEqual = simple("integer", rules("1", "2", "3", orEqual: true))
    static let decimalRules = simple("decimal", rules("1.0", "2.0", "3.0", orEqual: false))
    static let decimalRulesOrEqual = simple("decimal", rules("1.0", "2.0", "3.0", orEqual: true))
    static let stringRules = simple("string", rules(#""beta""#, #""charlie""#, #""delta""#, orEqual: false))
    static let stringRulesOrEqual = simple("string", rules(#""beta""#, #""charlie""#, #""delta""#, orEqual: true))
    static func notEqual(_ item: String, _ value: String) -> String {
        simple(item, #"[{"skipToIdentifier": "notEqual", "matchingAnswer": \#(value), "ruleOperator": "ne"}]"#)
    }
    static func boolean(_ op: String, _ target: String) -> String {
        #"{"identifier": "q", "type": "choiceQuestion", "baseType": "boolean", "choices": [{"value": true, "text": "Yes"}, {"value": false, "text": "No"}], "surveyRules": [{"skipToIdentifier": "\#(target)", "matchingAnswer": true, "ruleOperator": "\#(op)"}]}"#
    }
    static let cohortRules = #"[{"matchingAnswer": "charlie", "ruleOperator": "eq", "cohort": "c"}, {"matchingAnswer": "delta", "ruleOperator": "eq", "cohort": "d"}, {"matchingAnswer": null, "cohort": "skip"}"#

    /// (test, question, answer JSON or nil, the step shown after the question)
    static let surveyRuleTests: [(String, String, String?, String)] = [
        ("testSurveyRule_Always", #"{"identifier": "q", "type": "multipleInputQuestion", "inputItems": [{"type": "string", "identifier": "field1"}, {"type": "integer", "identifier": "field2"}], "surveyRules": [{"skipToIdentifier": "always", "ruleOperator": "always"}]}"#, #"{"field1": "boo", "field2": 3}"#, "always"),
        ("testSurveyRule_Integer_Equal", integerRules, "2", "equal"),
        ("testSurveyRule_Integer_Equal_Default", simple("integer", #"[{"skipToIdentifier": "equal", "matchingAnswer": 3}]"#), "3", "equal"),
        ("testSurveyRule_Integer_Skip_Default", simple("integer", #"[{"skipToIdentifier": "skip"}]"#), nil, "skip"),
        ("testSurveyRule_Integer_LessThan", integerRules, "0", "lessThan"),
        ("testSurveyRule_Integer_GreaterThan", integerRules, "4", "greaterThan"),
        ("testSurveyRule_Integer_NotGreaterThan", integerRules, "3", "next"),
        ("testSurveyRule_Integer_NotLessThan", integerRules, "1", "next"),
        ("testSurveyRule_Integer_LessThanOrEqual", integerRulesOrEqual, "1", "lessThanEqual"),
        ("testSurveyRule_Integer_NotEqual_True", notEqual("integer", "2"), "3", "notEqual"),
        ("testSurveyRule_Integer_NotEqual_False", notEqual("integer", "2"), "2", "next"),
        ("testSurveyRule_Decimal_Equal", decimalRules, "2.0000000000001", "equal"),
        ("testSurveyRule_Decimal_LessThan", decimalRules, "0.0", "lessThan"),
        ("testSurveyRule_Decimal_GreaterThan", decimalRules, "4.0", "greaterThan"),
        ("testSurveyRule_Decimal_NotGreaterThan", decimalRules, "3.0", "next"),
        ("testSurveyRule_Decimal_NotLessThan", decimalRules, "1.0", "next"),
        ("testSurveyRule_Decimal_LessThanOrEqual", decimalRulesOrEqual, "1.0", "lessThanEqual"),
        ("testSurveyRule_Decimal_NotEqual_True", notEqual("decimal", "2.0"), "3.0", "notEqual"),
        ("testSurveyRule_Decimal_NotEqual_False", notEqual("decimal", "2.0"), "2.0", "next"),
        ("testSurveyRule_String_Equal", stringRules, #""charlie""#, "equal"),
        ("testSurveyRule_String_LessThan", stringRules, #""alpha""#, "lessThan"),
        ("testSurveyRule_String_GreaterThan", stringRules, #""gamma""#, "greaterThan"),
        ("testSurveyRule_String_NotGreaterThan", stringRules, #""delta""#, "next"),
        ("testSurveyRule_String_NotLessThan", stringRules, #""beta""#, "next"),
        ("testSurveyRule_String_LessThanOrEqual", stringRulesOrEqual, #""beta""#, "lessThanEqual"),
        ("testSurveyRule_String_NotEqual_True", notEqual("string", #""charlie""#), #""hoover""#, "notEqual"),
        ("testSurveyRule_String_NotEqual_False", notEqual("string", #""charlie""#), #""charlie""#, "next"),
        ("testSurveyRule_Boolean_Equal_True", boolean("eq", "equal"), "true", "equal"),
        ("testSurveyRule_Boolean_Equal_False", boolean("eq", "equal"), "false", "next"),
        ("testSurveyRule_Boolean_NotEqual_True", boolean("ne", "notEqual"), "false", "notEqual"),
        ("testSurveyRule_Boolean_NotEqual_False", boolean("ne", "notEqual"), "true", "next"),
    ]

    static let surveyScenarios: [NavigationScenario] = surveyRuleTests.map { name, question, answer, next in
        NavigationScenario(
            name: name, task: surveyTask(question),
            moves: [.init(shown: "boobaloo/instruction1"), .init(shown: "boobaloo/instruction2"),
                    .init(shown: "boobaloo/q", answer: answer), .init(shown: "boobaloo/\(next)")],
            finish: "earlyExit", stepHistory: ["instruction1", "instruction2", "q", next])
    } + [
        NavigationScenario(
            name: "testSurveyRule_Cohort_Equal", task: surveyTask(simple("string", cohortRules + #", {"ruleOperator": "always", "cohort": "always"}]"#)),
            moves: [.init(shown: "boobaloo/instruction1", cohorts: []), .init(shown: "boobaloo/instruction2"),
                    .init(shown: "boobaloo/q", answer: #""charlie""#, cohorts: []), .init(shown: "boobaloo/next", cohorts: ["always", "c"])],
            finish: "earlyExit"),
        NavigationScenario(
            name: "testSurveyRule_Cohort_Skip", task: surveyTask(simple("string", cohortRules + "]")), cohorts: ["c", "d"],
            moves: [.init(shown: "boobaloo/instruction1", cohorts: ["c", "d"]), .init(shown: "boobaloo/instruction2"),
                    .init(shown: "boobaloo/q"), .init(shown: "boobaloo/next", cohorts: ["skip"])],
            finish: "earlyExit"),
    ]

    // MARK: Cohort tracking rules

    static let threeRules = #"[{"requiredCohorts": ["d"]}, {"requiredCohorts": ["e", "g"], "operator": "all", "skipToIdentifier": "elephant"}, {"requiredCohorts": ["f", "h"], "operator": "any", "skipToIdentifier": "fox"}]"#
    static let ends = #"{"identifier": "elephant", "type": "instruction", "nextStepIdentifier": "exit"}, {"identifier": "fox", "type": "instruction", "nextStepIdentifier": "exit"}"#
    static let beforeTask = #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "intro", "type": "instruction"}, {"identifier": "foo", "type": "instruction", "nextStepIdentifier": "exit", "beforeCohortRules": \#(threeRules)}, {"identifier": "afterFoo", "type": "instruction", "nextStepIdentifier": "exit"}, \#(ends)]}"#
    static let afterTask = #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "intro", "type": "instruction"}, {"identifier": "s", "type": "section", "steps": [{"identifier": "foo", "type": "instruction", "afterCohortRules": \#(threeRules)}, {"identifier": "inSection", "type": "instruction", "nextStepIdentifier": "exit"}]}, {"identifier": "afterSection", "type": "instruction", "nextStepIdentifier": "exit"}, \#(ends)]}"#

    static let cohortScenarios: [NavigationScenario] = [
        ("Default", ["d", "test"], "afterFoo"), ("All_Failed", ["e", "test"], "foo"), ("All_Passed", ["e", "g", "test"], "elephant"),
        ("Any_Passed", ["h", "test"], "fox"), ("Any_Failed", ["test"], "foo"),
    ].map { name, cohorts, shown in
        NavigationScenario(name: "testCohortTrackingRule_SkipStep_\(name)", task: beforeTask, cohorts: cohorts,
                           moves: [.init(shown: "t/intro", cohorts: cohorts.sorted()), .init(shown: "t/\(shown)")], finish: "earlyExit")
    } + [
        ("Default", ["d", "test"], "t/afterSection"), ("All_Failed", ["e", "test"], "t/s/inSection"), ("All_Passed", ["e", "g", "test"], "t/elephant"),
        ("Any_Passed", ["h", "test"], "t/fox"), ("Any_Failed", ["test"], "t/s/inSection"),
    ].map { name, cohorts, shown in
        NavigationScenario(name: "testCohortTrackingRule_NextStep_\(name)", task: afterTask, cohorts: cohorts,
                           moves: [.init(shown: "t/intro"), .init(shown: "t/s/foo"), .init(shown: shown)], finish: "earlyExit")
    } + [
        NavigationScenario(
            name: "testCohortTrackingRule_NextStep",
            task: #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "q", "type": "simpleQuestion", "inputItem": {"type": "string"}, "surveyRules": [{"matchingAnswer": "charlie", "cohort": "c"}, {"matchingAnswer": "delta", "cohort": "d"}], "afterCohortRules": [{"requiredCohorts": ["d"]}]}, {"identifier": "next", "type": "instruction"}]}"#,
            cohorts: ["d", "test"],
            moves: [.init(shown: "t/q", answer: #""charlie""#, cohorts: ["d", "test"]), .init(shown: "t/next", cohorts: ["c", "test"])],
            finish: "completed", stepHistory: ["q", "next"]),
        NavigationScenario(
            name: "testCohortNavigation_SkipFirstStep",
            task: #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "step1", "type": "instruction", "beforeCohortRules": [{"requiredCohorts": ["skip1"], "skipToIdentifier": "step2"}]}, {"identifier": "step2", "type": "instruction"}]}"#,
            cohorts: ["skip1"], moves: [.init(shown: "t/step2", direction: "forward")], finish: "completed", stepHistory: ["step2"]),
        NavigationScenario(
            name: "testTrackingRules_SkipFirstStep",
            task: #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "step1", "type": "instruction", "beforeCohortRules": [{"requiredCohorts": ["skip1"], "skipToIdentifier": "step2"}]}, {"identifier": "step2", "type": "instruction"}, {"identifier": "step3", "type": "instruction"}, {"identifier": "step4", "type": "instruction"}]}"#,
            cohorts: ["skip1"], moves: [.init(shown: "t/step2"), .init(shown: "t/step3"), .init(shown: "t/step4")],
            finish: "completed", stepHistory: ["step2", "step3", "step4"]),
    ]

    // MARK: Abbreviated instructions

    /// SageResearch's test tree T with `fullInstructionsOnly` on step1, step5.stepX and step5.stepY.
    static let treeT: String = {
        func step(_ id: String, full: Bool = false) -> String {
            #"{"identifier": "\#(id)", "type": "instruction"\#(full ? #", "fullInstructionsOnly": true"# : "")}"#
        }
        func section(_ id: String, _ steps: [String]) -> String {
            #"{"identifier": "\#(id)", "type": "section", "steps": [\#(steps.joined(separator: ", "))]}"#
        }
        let steps = [
            step("introduction"), step("step1", full: true), step("step2"), step("step3"),
            section("step4", [step("stepA"), step("stepB"), step("stepC")]),
            section("step5", [step("stepX", full: true), step("stepY", full: true), step("stepZ")]),
            section("step6", [step("stepA"), step("stepB"), step("stepC")]),
            step("step7"), #"{"identifier": "completion", "type": "completion"}"#,
        ]
        return #"{"identifier": "T", "type": "assessment", "progressMarkers": ["step1", "step2", "step3", "step4", "step5", "step6", "step7"], "steps": [\#(steps.joined(separator: ", "))]}"#
    }()

    static let motorControlInstructions = #"{"identifier": "m", "type": "assessment", "steps": [{"identifier": "first", "type": "instruction"}, {"identifier": "instructionFirstRunOnly", "type": "instruction", "fullInstructionsOnly": true}, {"identifier": "instructionNotFirstRunOnly", "type": "instruction"}, {"identifier": "completion", "type": "completion"}]}"#

    static let abbreviatedScenarios: [NavigationScenario] = [
        NavigationScenario(
            name: "testAbbreviatedInstructions_ToCompletion", task: treeT, fullInstructions: false,
            moves: ["introduction", "step2", "step3", "step4/stepA", "step4/stepB", "step4/stepC", "step5/stepZ",
                    "step6/stepA", "step6/stepB", "step6/stepC", "step7", "completion"].map { .init(shown: "T/\($0)") },
            finish: "completed",
            stepHistory: ["introduction", "step2", "step3", "step4", "step5", "step6", "step7", "completion"],
            sectionHistory: ("step5", ["stepZ"])),
        NavigationScenario(
            name: "MotorControl testInstructionStep_firstRun", task: motorControlInstructions, fullInstructions: true,
            moves: ["first", "instructionFirstRunOnly", "instructionNotFirstRunOnly", "completion"].map { .init(shown: "m/\($0)") },
            finish: "completed"),
        NavigationScenario(
            name: "MotorControl testInstructionStep_notFirstRun", task: motorControlInstructions, fullInstructions: false,
            moves: ["first", "instructionNotFirstRunOnly", "completion"].map { .init(shown: "m/\($0)") },
            finish: "completed", stepHistory: ["first", "instructionNotFirstRunOnly", "completion"]),
    ]

    // MARK: Where survey rules jump

    static func jumpTask(_ rule: String) -> String {
        #"{"identifier": "j", "type": "assessment", "steps": [{"identifier": "intro", "type": "instruction"}, {"identifier": "s", "type": "section", "steps": [{"identifier": "q", "type": "stringChoiceQuestion", "choices": ["stay", "jump"], "surveyRules": [\#(rule)]}, {"identifier": "inSection", "type": "instruction"}]}, {"identifier": "middle", "type": "instruction"}, {"identifier": "last", "type": "instruction"}]}"#
    }

    static let jumpScenarios: [NavigationScenario] = [
        NavigationScenario(
            name: "a rule jumps out of its section", task: jumpTask(#"{"matchingAnswer": "jump", "skipToIdentifier": "last"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""jump""#), .init(shown: "j/last", direction: "forward")],
            finish: "completed"),
        NavigationScenario(
            name: "a rule that does not match goes on in order", task: jumpTask(#"{"matchingAnswer": "jump", "skipToIdentifier": "last"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""stay""#), .init(shown: "j/s/inSection"), .init(shown: "j/middle"), .init(shown: "j/last")],
            finish: "completed"),
        NavigationScenario(
            name: "a rule jumps back to a step shown before", task: jumpTask(#"{"matchingAnswer": "jump", "skipToIdentifier": "intro"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""jump""#), .init(shown: "j/intro", direction: "backward"),
                    .init(shown: "j/s/q", answer: #""stay""#), .init(shown: "j/s/inSection"), .init(shown: "j/middle"), .init(shown: "j/last")],
            finish: "completed"),
        NavigationScenario(
            name: "a rule leaves its section with nextSection", task: jumpTask(#"{"matchingAnswer": "jump", "skipToIdentifier": "nextSection"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""jump""#), .init(shown: "j/middle"), .init(shown: "j/last")],
            finish: "completed"),
        NavigationScenario(
            name: "a rule without a target exits", task: jumpTask(#"{"matchingAnswer": "jump"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""jump""#)],
            finish: "earlyExit"),
        NavigationScenario(
            name: "two matching rules navigate nowhere (SageResearch 4)", task: jumpTask(#"{"matchingAnswer": "jump", "skipToIdentifier": "last"}, {"ruleOperator": "always", "skipToIdentifier": "middle"}"#),
            moves: [.init(shown: "j/intro"), .init(shown: "j/s/q", answer: #""jump""#), .init(shown: "j/s/inSection"), .init(shown: "j/middle"), .init(shown: "j/last")],
            finish: "completed"),
    ]

    static let all = surveyScenarios + cohortScenarios + abbreviatedScenarios + jumpScenarios
}
