import Foundation
import TaskModel
import TaskNavigation

/// The human-readable form of a plan.
enum PlanText {
    static func render(_ plan: TaskPlan, task: TaskDefinition) -> String {
        var lines = ["Task \(plan.taskIdentifier) (\(task.type?.rawValue ?? "assessment")): \(plan.steps.count) steps"]
        let width = String(plan.steps.count).count
        for (index, step) in plan.steps.enumerated() {
            let number = String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)"
            var line = "\(number). \(step.stepPath) [\(step.type)]"
            if let duration = step.duration { line += " \(seconds(duration))" }
            lines.append(line)
            let indent = String(repeating: " ", count: width + 2)
            for action in step.startAsyncActions {
                lines.append("\(indent)start \(action.identifier) (declared by \(action.owner))")
            }
            for prompt in step.spokenInstructions {
                lines.append("\(indent)at \(seconds(prompt.time)) say \"\(prompt.text)\"")
            }
            for action in step.stopAsyncActions {
                lines.append("\(indent)stop \(action.identifier) (declared by \(action.owner)) when this step ends")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `30 s`, `2.5 s`.
    static func seconds(_ value: Double) -> String {
        "\(NumberText.plain(value)) s"
    }
}
