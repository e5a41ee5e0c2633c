import ControlProtocol
import ControlServer
import Daemon
import Foundation
import Logging
import TaskModel
import Testing
import TestSupport
import WebRelay

/// Every event names the run it is of, also when a run ends and another starts before the first
/// run's events are all out, and a command meant for the ended run reaches no other
/// (docs/protocol.md, "Events" and "The run a command means"). The first run's events are held
/// back 300 ms each (`holdEventsBack`), the second's not, so the two runs' events may interleave;
/// which event is whose is told by its step's task, whatever the order. The same lines through a
/// kiosk tab's `TabRunScope` that follows the first run: nothing of the second reaches the tab
/// (docs/kiosk.md, "A tab's own run").
@Suite struct DaemonRunNamingTests {
    static func task(_ identifier: String) throws -> JSONValue {
        let text = #"{"identifier": "\#(identifier)", "steps": [{"identifier": "one", "type": "instruction"}, {"identifier": "two", "type": "instruction"}]}"#
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func eventsNameTheirRunAndCommandsTheRunTheyMean() async throws {
        try await InProcessDaemon.with("naming") { host, dispatcher in
            await host.holdEventsBack(by: .milliseconds(300))
            _ = try await dispatcher.call(ControlMethods.taskLoad, TaskLoadParams(task: try Self.task("Held")), connection: 1, peer: .unknown)
            let first = try #require(try await dispatcher.call(ControlMethods.runStart, RunStartParams(), connection: 1, peer: .unknown).taskRunUUID)
            await host.holdEventsBack(by: .zero)

            // One client cancels the first run; another starts a run as soon as the daemon takes one.
            async let cancelled = dispatcher.call(ControlMethods.runCancel, CancelParams(save: false, taskRunUUID: first), connection: 1, peer: .unknown)
            var second: String?
            while second == nil {
                do {
                    _ = try await dispatcher.call(ControlMethods.taskLoad, TaskLoadParams(task: try Self.task("Quick")), connection: 2, peer: .unknown)
                    second = try await dispatcher.call(ControlMethods.runStart, RunStartParams(), connection: 2, peer: .unknown).taskRunUUID
                } catch let error as ControlError where error.code == .runAlreadyRunning || error.code == .commandOutOfOrder {
                    await Task.yield()
                }
            }
            let secondRun = try #require(second)
            // Its answer is the session's status once settled: by then, maybe the second run's.
            #expect([first, secondRun].contains(try await cancelled.taskRunUUID))

            // A command meant for the first run, while the second runs, is refused naming both.
            let stale = await #expect(throws: ControlError.self) {
                _ = try await dispatcher.call(ControlMethods.runForward, ForwardParams(taskRunUUID: first), connection: 1, peer: .unknown)
            }
            #expect(stale?.code == .noRunningRun && stale?.data?.taskRunUUID == secondRun, "\(String(describing: stale))")
            #expect(stale?.message.contains(first) == true && stale?.message.contains(secondRun) == true, "\(String(describing: stale))")
            let status = try await dispatcher.call(ControlMethods.runStatus, NoParams(), connection: 2, peer: .unknown)
            #expect(status.step?.stepPath == "Quick/one", "the refused command moved nothing")
            // Named right, it is carried out.
            _ = try await dispatcher.call(ControlMethods.runForward, ForwardParams(stepPath: "Quick/one", taskRunUUID: secondRun), connection: 2, peer: .unknown)

            // Every event up to the first run's taskFinished and the second run's second step
            // names its run, in whichever order they came.
            var seen: [(kind: String, run: String?, stepPath: String?)] = []
            var lines: [[UInt8]] = []
            for await event in host.events() {
                lines.append(try JSONRPCLineWriter.line(JSONRPCNotification(method: ControlEvent.notificationMethod, params: event)).dropLast())
                let stepPath: String? = if case .stepShown(let shown) = event.payload { shown.stepPath } else { nil }
                seen.append((event.kind.rawValue, event.taskRunUUID, stepPath))
                if seen.contains(where: { $0.stepPath == "Quick/two" }), seen.contains(where: { $0.kind == "taskFinished" && $0.run == first }) { break }
            }
            for event in seen {
                let expected = event.stepPath.map { $0.hasPrefix("Held/") ? first : secondRun }
                #expect(event.run == first || event.run == secondRun, "\(event)")
                if let expected { #expect(event.run == expected, "\(event)") }
            }
            #expect(seen.contains { $0.stepPath == "Held/one" } && seen.contains { $0.stepPath == "Quick/one" }, "\(seen)")

            // A tab that started the first run, through the relay's rule.
            var scope = TabRunScope(claim: first)
            _ = scope.probe()
            let probeAnswer = #"{"id":"activetask-web.probe","jsonrpc":"2.0","result":{"state":"running","taskRunUUID":"\#(first)"}}"#
            _ = scope.daemonLine(Array(probeAnswer.utf8))
            var shown: [String] = []
            for line in lines {
                let outcome = scope.daemonLine(line)
                #expect(outcome.close == nil)
                if !outcome.toBrowser.isEmpty { shown.append(String(decoding: line, as: UTF8.self)) }
            }
            #expect(!shown.contains { $0.contains(secondRun) || $0.contains("Quick/") }, "\(shown)")
            #expect(shown.contains { $0.contains("Held/one") } && shown.contains { $0.contains(#""taskFinished""#) }, "\(shown)")
        }
    }
}
