import ControlClient
import ControlProtocol
import Foundation
import TaskModel

/// Drives the running run with `AutoFrontEnd` until it finishes.
enum AutoRun {
    private enum Input: Sendable {
        case event(ControlEvent)
        case tick
    }

    /// Runs the loop; `progress` gets one line per step and per finish.
    static func drive(_ client: ControlClient, attachTo status: SessionStatus?,
                      progress: @escaping @Sendable (String) -> Void) async throws -> TaskFinishedEvent {
        let clock = ContinuousClock()
        let start = clock.now
        @Sendable func now() -> Double {
            let elapsed = clock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in client.events { continuation.yield(.event(event)) }
                continuation.finish()
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(100))
                    continuation.yield(.tick)
                }
            }
            defer { group.cancelAll() }
            var frontEnd = AutoFrontEnd()
            var pending: [AutoFrontEnd.Action] = []
            var shownStep = status?.step
            if let status, let step = status.step {
                pending += frontEnd.show(step, now: now(), timerRunning: status.timer?.running ?? false)
                if let request = status.permissionRequest { pending.append(.grant(requestID: request.requestID)) }
            }
            var iterator = inputs.makeAsyncIterator()
            while true {
                for action in pending {
                    if let finished = try await send(action, client, shown: shownStep) { return finished }
                }
                guard let input = await iterator.next() else { throw ControlClientError.connectionClosed }
                switch input {
                case .event(let event):
                    if case .stepShown(let shown) = event.payload {
                        shownStep = shown
                        progress("step \(shown.stepPath) (\(shown.type))")
                    }
                    if case .taskFinished(let finished) = event.payload { progress("run \(finished.taskRunUUID) \(finished.reason.rawValue)") }
                    pending = frontEnd.receive(event, now: now())
                case .tick:
                    pending = frontEnd.tick(now: now())
                }
            }
        }
    }

    /// A required question's answer, so that the run goes on (docs/protocol.md, "Questions");
    /// nil for other steps.
    static func sampleAnswers(_ shown: StepShownEvent?, stepPath: String) -> [StepAnswer]? {
        guard let shown, shown.stepPath == stepPath, let question = shown.question, let value = question.sampleAnswer() else { return nil }
        return [StepAnswer(identifier: question.identifier, value: value)]
    }

    /// Sends one action; a refusal because the session already moved on is expected and ignored.
    private static func send(_ action: AutoFrontEnd.Action, _ client: ControlClient, shown: StepShownEvent?) async throws -> TaskFinishedEvent? {
        do {
            switch action {
            case .forward(let stepPath):
                _ = try await client.call(ControlMethods.runForward, ForwardParams(answers: sampleAnswers(shown, stepPath: stepPath), stepPath: stepPath))
            case .startTimer:
                _ = try await client.call(ControlMethods.timerStart)
            case .grant(let requestID):
                _ = try await client.call(ControlMethods.permissionAnswer, PermissionAnswerParams(requestID: requestID, granted: true))
            case .finished(let finished):
                return finished
            }
        } catch ControlClientError.remote(let error)
            where [.commandOutOfOrder, .actionNotAllowed, .notFound, .noRunningRun].contains(error.code) {
            // The session moved on (a timer ended the step, the run finished): nothing to do.
        }
        return nil
    }
}
