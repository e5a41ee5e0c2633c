import TaskModel
import TaskNavigation

/// Question steps (docs/task-format.md, "Question steps" and "Survey rules"): the answers of a
/// forward command are checked against the question and become its answer result; the survey
/// rules decide where to go and which cohorts change.
extension SessionMachine {
    /// What going forward from a step does: the result to record, the target to go to (nil:
    /// the step's own navigation), and the cohorts from then on.
    struct ForwardDecision: Sendable {
        var input: StepResultInput
        var target: String?
        var cohorts: Set<String>
    }

    /// The decision for `input` on `step`; a question's wrong answer is refused with the
    /// member at fault, and nothing changes.
    func decideForward(_ input: StepResultInput, from step: Step) throws(SessionError) -> ForwardDecision {
        guard let question = try question(of: step) else {
            return ForwardDecision(input: input, target: input.skipToIdentifier, cohorts: navigator.cohorts)
        }
        let value: JSONValue?
        do {
            value = try question.answerValue(from: input.answers.map { .init(identifier: $0.identifier, value: $0.value) })
        } catch {
            throw SessionError(.invalidArgument, error.message, codingPath: error.codingPath)
        }
        let answer = StepResultInput.Answer(identifier: step.identifier, value: value ?? .null,
                                            answerType: question.answerType.json, questionText: question.questionText)
        let ruleAnswer = SurveyRuleEvaluation.Answer(answerType: question.answerType, value: value)
        // SageResearch: the rules' target first, then the result's skip target, then the step's
        // own nextStepIdentifier; the cohort rules apply only when none of them navigates.
        let target = SurveyRuleEvaluation.navigationTarget(rules: question.surveyRules, answer: ruleAnswer) ?? input.skipToIdentifier
        var cohorts = navigator.cohorts
        if (target ?? step.nextStepIdentifier) == nil {
            let change = SurveyRuleEvaluation.cohorts(rules: question.surveyRules, answer: ruleAnswer)
            cohorts = cohorts.union(change.add).subtracting(change.remove)
        }
        return ForwardDecision(input: StepResultInput(answers: [answer], skipToIdentifier: input.skipToIdentifier), target: target, cohorts: cohorts)
    }

    /// The cohorts after skipping `step` without navigating elsewhere: a skipped question has
    /// no answer result, so only its `always` and `de` cohort rules match.
    func cohortsAfterSkipping(_ step: Step) -> Set<String> {
        guard let question = try? question(of: step) else { return navigator.cohorts }
        let change = SurveyRuleEvaluation.cohorts(rules: question.surveyRules, answer: nil)
        return navigator.cohorts.union(change.add).subtracting(change.remove)
    }

    private func question(of step: Step) throws(SessionError) -> QuestionStep? {
        do {
            return try step.question()
        } catch {
            throw SessionError(.invalidArgument, "The question step \"\(step.identifier)\" does not decode at \(error.codingPath): \(error.reason) Fix the task and load it again.")
        }
    }

    /// A resumed run goes on with the cohorts and instructions mode its manifest saved; a
    /// manifest without them keeps the session's settings.
    mutating func restoreSettings(cohorts: [String]?, fullInstructions: Bool?) {
        if let cohorts { navigator.cohorts = Set(cohorts) }
        if let fullInstructions { navigator.showsFullInstructions = fullInstructions }
    }
}
