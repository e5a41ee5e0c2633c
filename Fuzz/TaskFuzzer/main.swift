// fuzz-task: the task decoder, the navigator and the plan on arbitrary bytes (docs/fuzzing.md).
//
// Input: a task document, then optionally a NUL byte and navigation moves, one byte each
// (forward, back, skip to a step chosen by the next byte, the step timer finishing, progress).
// Transforms resolve against examples/WalkAndBalance so the committed example's sections load.
import Foundation
import FuzzSupport
import TaskModel
import TaskNavigation

let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples/WalkAndBalance", isDirectory: true)

/// Most navigation moves a single input makes; enough for any committed example several times over.
let maximumMoves = 512

FuzzDriver.main(name: "fuzz-task", usage: "task JSON, then NUL and navigation move bytes") { input in
    var input = input
    let document = Data(input.slice(upTo: 0))
    guard let loaded = try? TaskLoader().load(data: document, displayName: "fuzz input", baseDirectory: examples),
        case .task(let task) = loaded.document
    else { return }

    for abbreviated in [false, true] {
        if let plan = try? TaskPlan(task: task, showsFullInstructions: !abbreviated) {
            // Every planned step exists and appears once: the plan stops when navigation goes back.
            precondition(Set(plan.steps.map(\.stepPath)).count == plan.steps.count, "A plan lists a step twice.")
        }
    }

    let identifiers = task.allLocations().compactMap { task.step(at: $0)?.identifier }
    var navigator = TaskNavigator(task: task)
    guard (try? navigator.start()) != nil else { return }
    var moves = 0
    while !input.isAtEnd, !navigator.isFinished, moves < maximumMoves {
        moves += 1
        switch input.choice(6) {
        case 0: _ = try? navigator.goForward()
        case 1: _ = try? navigator.goBack()
        case 2:
            let target = identifiers.isEmpty ? nil : identifiers[input.choice(min(identifiers.count, 256))]
            _ = try? navigator.skip(to: target)
        case 3: _ = navigator.stepTimerFinished()
        case 4: _ = navigator.progress
        default: _ = try? navigator.goForward(skipToIdentifier: "fuzz-unknown-step")
        }
        if let location = navigator.currentLocation {
            precondition(task.step(at: location) != nil, "The navigator stands on a location with no step.")
            precondition(navigator.history.last == location, "The current step is not the last one shown.")
        }
        precondition(
            Set(navigator.runningAsyncActions).count == navigator.runningAsyncActions.count,
            "An async action runs twice.")
    }
    let ending = navigator.finish()
    precondition(ending.to == nil && navigator.runningAsyncActions.isEmpty, "Finishing left async actions running.")
}
