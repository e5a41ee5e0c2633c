import Testing

@testable import AsyncActions

/// The lifecycle on its own: each row feeds events in order and names the actions each one
/// must return and the status it must leave.
@Suite("Async action lifecycle")
struct AsyncActionLifecycleTests {
    typealias Event = AsyncActionLifecycle.Event
    typealias Action = AsyncActionLifecycle.Action

    static let denied = AsyncActionError(.permissionDenied, "no device")
    static let lost = AsyncActionError(.deviceFailed, "device lost")
    static let full = AsyncActionError(.outputFailed, "disk full")
    static let hung = AsyncActionError(.timedOut, "hangs")

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [(Event, [Action])]
        var status: AsyncActionStatus
        var testDescription: String { name }
    }

    /// Permission granted, started, running.
    static let toRunning: [(Event, [Action])] = [
        (.requestPermission, [.publish(.requestingPermission), .openDevice]),
        (.permissionGranted, [.publish(.permissionGranted)]),
        (.start(stepPath: "a"), [.publish(.starting), .startRecording(stepPath: "a")]),
        (.started, [.publish(.running)]),
    ]

    static let rows: [Row] = [
        Row(name: "the whole path, stop through SageResearch's statuses", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.stopped, [.publish(.processingResults), .processResults]),
            (.resultsReady, [.publish(.stopping), .publish(.finished), .finishStop(.results)]),
        ], status: .finished),
        Row(name: "permission denied: one failure, the command throws, nothing to halt", steps: [
            (.requestPermission, [.publish(.requestingPermission), .openDevice]),
            (.operationFailed(denied), [.publishFailure(denied), .reject(denied)]),
            (.stop, [.finishStop(.errorResult)]),
            (.start(stepPath: "a"), [.reject(denied)]),
        ], status: .failed),
        Row(name: "permission check past its deadline", steps: [
            (.requestPermission, [.publish(.requestingPermission), .openDevice]),
            (.deadlinePassed(hung), [.publishFailure(hung), .reject(hung)]),
        ], status: .failed),
        Row(name: "start fails: halt, then failure, then the command throws", steps: Array(toRunning.prefix(3)) + [
            (.operationFailed(full), [.halt(deleteOutput: false), .publishFailure(full), .reject(full)]),
            (.stop, [.finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "failure while recording: the file is closed before failed is published", steps: toRunning + [
            (.failure(lost), [.halt(deleteOutput: false), .publishFailure(lost)]),
            (.failure(full), []),
            (.stop, [.finishStop(.errorResult)]),
            (.stop, [.finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "failure arrives during stop: the stop returns the error result, never files", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.failure(lost), []),
            (.stopped, [.halt(deleteOutput: false), .publishFailure(lost), .finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "stop itself fails (the close fails)", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.operationFailed(full), [.halt(deleteOutput: false), .publishFailure(full), .finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "stop past its deadline", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.deadlinePassed(hung), [.halt(deleteOutput: false), .publishFailure(hung), .finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "failure while the results are built", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.stopped, [.publish(.processingResults), .processResults]),
            (.operationFailed(full), [.halt(deleteOutput: false), .publishFailure(full), .finishStop(.errorResult)]),
        ], status: .failed),
        Row(name: "failure during start: halted when the start returns", steps: Array(toRunning.prefix(3)) + [
            (.failure(lost), []),
            (.started, [.halt(deleteOutput: false), .publishFailure(lost), .reject(lost)]),
        ], status: .failed),
        Row(name: "cancel when idle", steps: [(.cancel, [.publish(.cancelled)]), (.cancel, [])], status: .cancelled),
        Row(name: "cancel while asking permission: the device is released when the open returns", steps: [
            (.requestPermission, [.publish(.requestingPermission), .openDevice]),
            (.cancel, [.publish(.cancelled)]),
            (.permissionGranted, [.halt(deleteOutput: true)]),
        ], status: .cancelled),
        Row(name: "cancel with permission granted", steps: Array(toRunning.prefix(2)) + [
            (.cancel, [.publish(.cancelled), .halt(deleteOutput: true)]),
            (.start(stepPath: "a"), [.reject(AsyncActionError(.invalidState, "x can only start after permission was granted (it is cancelled)."))]),
        ], status: .cancelled),
        Row(name: "cancel while starting: halted and deleted when the start returns", steps: Array(toRunning.prefix(3)) + [
            (.cancel, [.publish(.cancelled)]),
            (.started, [.halt(deleteOutput: true), .reject(AsyncActionError(.invalidState, "x was cancelled while starting."))]),
        ], status: .cancelled),
        Row(name: "cancel while running", steps: toRunning + [
            (.cancel, [.publish(.cancelled), .halt(deleteOutput: true)]),
            (.failure(lost), []),
            (.stop, [.finishStop(.nothing)]),
        ], status: .cancelled),
        Row(name: "cancel while stopping: the stop returns nothing", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.cancel, [.publish(.cancelled)]),
            (.stopped, [.halt(deleteOutput: true), .finishStop(.nothing)]),
        ], status: .cancelled),
        Row(name: "cancel while processing results", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.stopped, [.publish(.processingResults), .processResults]),
            (.cancel, [.publish(.cancelled)]),
            (.resultsReady, [.halt(deleteOutput: true), .finishStop(.nothing)]),
        ], status: .cancelled),
        Row(name: "cancel after a failure deletes what the failed recording left", steps: toRunning + [
            (.failure(lost), [.halt(deleteOutput: false), .publishFailure(lost)]),
            (.cancel, [.halt(deleteOutput: true)]),
        ], status: .failed),
        Row(name: "cancel after finishing does nothing", steps: toRunning + [
            (.stop, [.publish(.waitingToStop), .stopRecording]),
            (.stopped, [.publish(.processingResults), .processResults]),
            (.resultsReady, [.publish(.stopping), .publish(.finished), .finishStop(.results)]),
            (.cancel, []),
            (.failure(lost), []),
        ], status: .finished),
        Row(name: "commands out of order are rejected and change nothing", steps: [
            (.start(stepPath: "a"), [.reject(AsyncActionError(.invalidState, "x can only start after permission was granted (it is idle)."))]),
            (.stop, [.reject(AsyncActionError(.invalidState, "x is not recording (it is idle); nothing to stop."))]),
            (.started, []),
            (.stopped, []),
            (.requestPermission, [.publish(.requestingPermission), .openDevice]),
            (.requestPermission, [.reject(AsyncActionError(.invalidState, "Permission was already requested for x (it is requestingPermission); create a new controller to record again."))]),
        ], status: .requestingPermission),
    ]

    @Test("Transitions", arguments: rows)
    func transitions(row: Row) {
        var lifecycle = AsyncActionLifecycle(identifier: "x")
        for (index, (event, expected)) in row.steps.enumerated() {
            #expect(lifecycle.handle(event) == expected, "step \(index): \(event)")
        }
        #expect(lifecycle.status == row.status)
    }

    @Test("Every sequence publishes at most one failure and only forward status moves")
    func exhaustiveSequences() {
        let events: [Event] = [
            .requestPermission, .permissionGranted, .start(stepPath: "a"), .started, .stop, .stopped, .resultsReady,
            .operationFailed(Self.full), .deadlinePassed(Self.hung), .failure(Self.lost), .cancel,
        ]
        // Every sequence of four events after a granted, started recording, and from idle.
        for prefix in [[], Self.toRunning.map(\.0)] {
            var sequences: [[Event]] = [[]]
            for _ in 0..<4 { sequences = sequences.flatMap { sequence in events.map { sequence + [$0] } } }
            for sequence in sequences {
                var lifecycle = AsyncActionLifecycle(identifier: "x")
                var published: [AsyncActionStatus] = [.idle]
                var failures = 0
                for event in prefix + sequence {
                    for action in lifecycle.handle(event) {
                        switch action {
                        case .publish(let status): published.append(status)
                        case .publishFailure: failures += 1; published.append(.failed)
                        default: break
                        }
                    }
                }
                #expect(failures <= 1, "\(sequence)")
                #expect(zip(published, published.dropFirst()).allSatisfy { $0.canMove(to: $1) }, "\(sequence): \(published)")
            }
        }
    }
}
