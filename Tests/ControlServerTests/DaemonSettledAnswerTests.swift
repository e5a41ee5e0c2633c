import AsyncActions
import ControlProtocol
import ControlServer
import Daemon
import Foundation
import Logging
import Session
import TaskModel
import Testing
import TestSupport

/// Run commands answer with the state they led to even when the daemon applies the session's
/// events late (docs/protocol.md, "Run commands"): the host's event task is held back 50 ms per
/// event, so an answer read before the events are applied would show the step before.
@Suite struct DaemonSettledAnswerTests {
    static let steps = 6

    static var task: JSONValue {
        get throws {
            let steps = (0..<steps).map { #"{"identifier": "s\#($0)", "type": "instruction"}"# }
            let text = #"{"identifier": "Late", "type": "assessment", "steps": [\#(steps.joined(separator: ", ")), {"identifier": "done", "type": "completion"}]}"#
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        }
    }

    @Test func runCommandsAnswerWithTheStepTheyLedToWhileEventsAreLate() async throws {
        try await InProcessDaemon.with("settled", prepare: { await $0.holdEventsBack(by: .milliseconds(50)) }) { _, dispatcher in
            _ = try await dispatcher.call(ControlMethods.taskLoad, TaskLoadParams(task: try Self.task), connection: 1, peer: .unknown)
            var answer = try await dispatcher.call(ControlMethods.runStart, RunStartParams(), connection: 1, peer: .unknown)
            var shown: [String] = [answer.step?.stepPath ?? "none"]
            for index in 0..<Self.steps {
                answer = try await dispatcher.call(ControlMethods.runForward, ForwardParams(stepPath: "Late/s\(index)"), connection: 1, peer: .unknown)
                shown.append(answer.step?.stepPath ?? "none")
            }
            #expect(shown == (0..<Self.steps).map { "Late/s\($0)" } + ["Late/done"])
            // A forward naming a step already left is refused, whatever the view shows yet.
            await #expect(throws: ControlError.self) {
                _ = try await dispatcher.call(ControlMethods.runForward, ForwardParams(stepPath: "Late/s0"), connection: 1, peer: .unknown)
            }
            _ = try await dispatcher.call(ControlMethods.runForward, ForwardParams(stepPath: "Late/done"), connection: 1, peer: .unknown)
        }
    }
}
