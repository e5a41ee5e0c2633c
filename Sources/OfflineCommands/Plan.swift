import ArgumentParser
import CommandOutput
import Foundation
import TaskModel
import TaskNavigation

/// `activetaskctl plan FILE [--json]`: the forward path through a task with no results and
/// full instructions: steps, async action starts and stops, spoken prompts. No daemon needed.
struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the steps of a task in order with async action starts/stops and spoken prompts.")

    @OptionGroup var registryOptions: RegistryOptions

    @Flag(help: "Print JSON: {taskIdentifier, steps: [{stepPath, type, duration, startAsyncActions, stopAsyncActions, spokenInstructions}]}.")
    var json = false

    @Flag(help: "Plan as in abbreviated-instructions mode (skip fullInstructionsOnly steps).")
    var abbreviated = false

    @Option(help: ArgumentHelp("Cohorts of the participant, comma separated (for cohort rules).", valueName: "names"))
    var cohorts: String?

    @Option(help: ArgumentHelp("The hand selection planned for (left, right or both; both plans the left hand first): the hand sections that run and the hand in the texts.", valueName: "hand"))
    var hand: String?

    @Argument(help: ArgumentHelp("The task JSON file.", valueName: "file"))
    var file: String

    func run() throws {
        let loader = TaskLoader(registry: try registryOptions.registry())
        let task: TaskDefinition
        let warnings: [TaskWarning]
        do {
            (task, warnings) = try loader.loadTask(path: file)
        } catch {
            Console.standardError(error.description)
            throw ExitCode(1)
        }
        for warning in warnings { Console.standardError("\(file): \(warning)") }
        let cohortSet = Set((cohorts ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        var planned: Hand?
        if let hand {
            guard let value = Hand(rawValue: hand) else {
                Console.standardError("--hand must be left, right or both, not \"\(hand)\".")
                throw ExitCode(2)
            }
            planned = value
        }
        let plan: TaskPlan
        do {
            plan = try TaskPlan(task: task, showsFullInstructions: !abbreviated, cohorts: cohortSet, hand: planned)
        } catch {
            Console.standardError("\(file): (root): \(error)")
            throw ExitCode(1)
        }
        for note in plan.notes { Console.standardError("\(file): note: \(note)") }
        if json {
            try JSONOutput.print(plan)
        } else {
            print(PlanText.render(plan, task: task))
        }
    }
}
