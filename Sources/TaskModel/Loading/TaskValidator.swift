/// Checks a resolved task for what SageResearch only finds at run time: duplicate step
/// identifiers in one container, `nextStepIdentifier`s naming no step of the task, async
/// actions starting or stopping at a step outside the container that declares them. Action
/// `skipToIdentifier`s naming no step are warnings (SageResearch's own TaskFoo.json has one).
struct TaskValidator {
    /// Identifiers navigation understands without a step of that name.
    static let reservedIdentifiers: Set<String> = ["exit", "nextSection", "nextStep"]

    var file: String

    func validate(task: TaskDefinition) throws(TaskLoadError) -> [TaskWarning] {
        let all = Self.identifiers(in: task.container)
        var warnings: [TaskWarning] = []
        try check(task.container, prefix: "", allIdentifiers: all, standalone: false, warnings: &warnings)
        return warnings
    }

    func validate(standaloneStep step: Step) throws(TaskLoadError) -> [TaskWarning] {
        var all = [step.identifier] as Set
        if let container = step.container { all.formUnion(Self.identifiers(in: container)) }
        var warnings: [TaskWarning] = []
        try check(step, path: "", allIdentifiers: all, standalone: true, warnings: &warnings)
        return warnings
    }

    /// Every step identifier in `container`, nested ones included.
    static func identifiers(in container: StepContainer) -> Set<String> {
        var result = Set<String>()
        for step in container.steps {
            result.insert(step.identifier)
            if let inner = step.container { result.formUnion(identifiers(in: inner)) }
        }
        return result
    }

    private func path(_ prefix: String, _ suffix: String) -> String {
        prefix.isEmpty ? suffix : "\(prefix).\(suffix)"
    }

    private func check(_ container: StepContainer, prefix: String, allIdentifiers: Set<String>, standalone: Bool,
                       warnings: inout [TaskWarning]) throws(TaskLoadError) {
        var seen: [String: Int] = [:]
        for (index, step) in container.steps.enumerated() {
            if let first = seen[step.identifier] {
                throw TaskLoadError(
                    file: file, codingPath: path(prefix, "steps[\(index)].identifier"),
                    reason: "Duplicate step identifier \"\(step.identifier)\": \(path(prefix, "steps[\(first)]")) already uses it; identifiers must be unique within a task or section.")
            }
            seen[step.identifier] = index
        }
        let scope = Self.identifiers(in: container)
        for (index, action) in container.asyncActions.enumerated() {
            for (key, target) in [("startStepIdentifier", action.startStepIdentifier), ("stopStepIdentifier", action.stopStepIdentifier)] {
                guard let target, !scope.contains(target) else { continue }
                throw TaskLoadError(
                    file: file, codingPath: path(prefix, "asyncActions[\(index)].\(key)"),
                    reason: "The async action \"\(action.identifier)\" names the step \"\(target)\", which is not a step of the task or section declaring it; use the identifier of one of its steps.")
            }
        }
        for (index, step) in container.steps.enumerated() {
            try check(step, path: path(prefix, "steps[\(index)]"), allIdentifiers: allIdentifiers, standalone: standalone, warnings: &warnings)
        }
    }

    private func check(_ step: Step, path stepPath: String, allIdentifiers: Set<String>, standalone: Bool,
                       warnings: inout [TaskWarning]) throws(TaskLoadError) {
        let known = allIdentifiers.union(Self.reservedIdentifiers)
        if let next = step.nextStepIdentifier, !known.contains(next) {
            let message = "The nextStepIdentifier \"\(next)\" names no step of the task; use a step identifier or \"exit\"."
            if standalone {
                warnings.append(TaskWarning(codingPath: path(stepPath, "nextStepIdentifier"), message: message + " (Checked again in the including task.)"))
            } else {
                throw TaskLoadError(file: file, codingPath: path(stepPath, "nextStepIdentifier"), reason: message)
            }
        }
        if step.kind == .taskInfo, step.container == nil {
            warnings.append(TaskWarning(
                codingPath: stepPath.isEmpty ? "(root)" : stepPath,
                message: "The taskInfo step \"\(step.identifier)\" names no task that was found (an inline \"task\", or \(step.identifier).json or its taskTransformer's file in the task directory); it is shown to the front end as a step."))
        }
        for (name, target) in step.actionSkipIdentifiers.sorted(by: { $0.key < $1.key }) where !known.contains(target) {
            warnings.append(TaskWarning(
                codingPath: path(stepPath, "actions.\(name).skipToIdentifier"),
                message: "The action \"\(name)\" skips to \"\(target)\", which names no step of the task; the front end should not offer it."))
        }
        for (key, rules) in [("beforeCohortRules", step.beforeCohortRules), ("afterCohortRules", step.afterCohortRules)] {
            for (index, rule) in rules.enumerated() {
                guard let target = rule.skipToIdentifier, !known.contains(target) else { continue }
                warnings.append(TaskWarning(
                    codingPath: path(stepPath, "\(key)[\(index)].skipToIdentifier"),
                    message: "The cohort rule skips to \"\(target)\", which names no step of the task."))
            }
        }
        do {
            for (index, rule) in (try step.question()?.surveyRules ?? []).enumerated() {
                guard let target = rule.skipToIdentifier, !known.contains(target) else { continue }
                warnings.append(TaskWarning(
                    codingPath: path(stepPath, "surveyRules[\(index)].skipToIdentifier"),
                    message: "The survey rule skips to \"\(target)\", which names no step of the task; going forward with an answer it matches is refused."))
            }
        } catch {
            throw TaskLoadError(file: file, codingPath: path(stepPath, error.codingPath),
                                reason: "The \(step.type.rawValue) step \"\(step.identifier)\" does not decode: \(error.reason)")
        }
        if let container = step.container {
            let inner = step.kind == .subtask || step.kind == .taskInfo ? path(stepPath, "task") : stepPath
            try check(container, prefix: inner, allIdentifiers: allIdentifiers, standalone: standalone, warnings: &warnings)
        }
    }
}
