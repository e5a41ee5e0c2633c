// fuzz-answer: a question step's answers checked and its survey rules evaluated on arbitrary
// bytes (docs/fuzzing.md).
//
// Input: a question step's JSON, then a NUL byte and the answers as `run.forward` sends them
// (a JSON array of {identifier, value}).
import Foundation
import FuzzSupport
import TaskModel
import TaskNavigation

FuzzDriver.main(name: "fuzz-answer", usage: "question step JSON, then NUL and a JSON array of answers") { input in
    var input = input
    let stepJSON = Data(input.slice(upTo: 0))
    let answersJSON = Data(input.rest())
    guard let properties = (try? JSONDecoder().decode(JSONValue.self, from: stepJSON))?.objectValue,
          let type = properties["type"]?.stringValue else { return }
    let step = Step(identifier: properties["identifier"]?.stringValue ?? "question", type: StepType(rawValue: type),
                    kind: .ui, properties: properties)
    guard let question = try? step.question() else { return }
    let answers = ((try? JSONDecoder().decode(JSONValue.self, from: answersJSON))?.arrayValue ?? []).compactMap { element -> QuestionStep.SubmittedAnswer? in
        guard let identifier = element["identifier"]?.stringValue else { return nil }
        return QuestionStep.SubmittedAnswer(identifier: identifier, value: element["value"] ?? .null)
    }
    let now = Date(timeIntervalSince1970: 1_760_000_000)
    let value: JSONValue?
    do throws(AnswerRejection) {
        value = try question.answerValue(from: answers, now: now)
    } catch {
        precondition(!error.codingPath.isEmpty && !error.message.isEmpty, "A refusal names no member or gives no reason.")
        return
    }
    precondition(question.isOptional || value != nil, "A required question accepted no answer.")
    if let value {
        // What was accepted is accepted again, unchanged, when sent as the question's answer.
        let again = try? question.answerValue(from: [.init(identifier: question.identifier, value: value)], now: now)
        if question.kind != .multipleInputQuestion {
            precondition(again == value, "An accepted answer is not accepted again as it was stored.")
        }
    }
    let answer = SurveyRuleEvaluation.Answer(answerType: question.answerType, value: value)
    _ = SurveyRuleEvaluation.navigationTarget(rules: question.surveyRules, answer: answer)
    _ = SurveyRuleEvaluation.navigationTarget(rules: question.surveyRules, answer: nil)
    let change = SurveyRuleEvaluation.cohorts(rules: question.surveyRules, answer: answer)
    precondition(change.add.isDisjoint(with: change.remove) || question.surveyRules.count > 1, "One rule both adds and removes a cohort.")
    _ = question.answerType.json
}
