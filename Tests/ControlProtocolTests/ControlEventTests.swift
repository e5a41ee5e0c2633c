import TaskNavigation
import TaskModel
import ControlProtocol
import Foundation
import Testing

@Suite struct ControlEventTests {
    static let payloads: [ControlEventPayload] = [
        .stepShown(StepShownEvent(stepPath: "t/a", step: ["identifier": "a", "type": "active", "duration": 30, "image": ["x": 1]],
                                  type: "active", progress: StepProgress(current: 1, total: 3, isEstimated: false),
                                  allowedActions: [.forward, .timerPause], duration: 30, hasStepBefore: true, hasStepAfter: true)),
        .timerStarted(StepTimerEvent(stepPath: "t/a", duration: 30)),
        .timerTick(StepTimerEvent(stepPath: "t/a", elapsed: 1, remaining: 29)),
        .timerPaused(StepTimerEvent(stepPath: "t/a", elapsed: 2)),
        .timerResumed(StepTimerEvent(stepPath: "t/a", elapsed: 2)),
        .timerFinished(StepTimerEvent(stepPath: "t/a")),
        .actionStatus(ActionStatusEvent(identifier: "motion", owner: "t", status: "running")),
        .actionFailed(ActionFailedEvent(identifier: "motion", owner: "t", message: "The IMU went away.")),
        .warning(WarningEvent(message: "Gap of 40 ms.", identifier: "motion")),
        .permissionRequest(PermissionRequestEvent(requestID: 1, permission: "microphone", actions: ["microphone"], deadlineUptime: 99)),
        .permissionAnswered(PermissionAnsweredEvent(requestID: 1, permission: "microphone", granted: true)),
        .promptSpoken(PromptSpokenEvent(stepPath: "t/a", text: "Walk.", scheduledUptime: 10, spokenUptime: 10.02)),
        .promptFinished(PromptFinishedEvent(stepPath: "t/a", text: "Walk.", finishedUptime: 10.61)),
        .stepCommand(StepCommandEvent(stepPath: "t/a", command: "vibrate")),
        .audioLevel(AudioLevelEvent(identifier: "microphone", averageDBFS: -40, peakDBFS: -12.5)),
        .motionProgress(MotionProgressEvent(identifier: "motion", samplesWritten: 100, achievedRate: 99.5)),
        .taskResultReady(TaskResultReadyEvent(taskRunUUID: "u", runDirectory: "/d/runs/u", stepPath: "t/completion")),
        .taskFinished(TaskFinishedEvent(taskRunUUID: "u", reason: .completed, runDirectory: "/d/runs/u", archive: "/d/runs/u/u.zip")),
        .eventsLost(EventsLostEvent(count: 3)),
    ]

    @Test func everyKindHasAnExample() {
        #expect(Set(Self.payloads.map(\.kind)) == Set(ControlEventKind.allCases))
    }

    @Test(arguments: payloads.indices)
    func eventsRoundTripWithTheirMembersBesideTheKind(index: Int) throws {
        let event = ControlEvent(sequence: UInt64(index + 1), uptime: 12.5, payload: Self.payloads[index])
        let json = try JSONValue.encoding(event)
        #expect(json["kind"] == .string(event.kind.rawValue))
        #expect(json["sequence"] == .integer(Int64(index + 1)))
        #expect(try json.decode(ControlEvent.self) == event)
    }

    /// Every event of a run names it beside `kind`, once (a `taskFinished` or `taskResultReady`
    /// by its own member), and reads back; an event of no run has none; the run's own member wins.
    @Test(arguments: payloads.indices)
    func eventsOfARunNameIt(index: Int) throws {
        let payload = Self.payloads[index]
        let run = payload.taskRunUUID ?? "AAAAAAAA-0000-4000-8000-000000000001"
        let event = ControlEvent(sequence: 5, uptime: 1, payload: payload, taskRunUUID: "AAAAAAAA-0000-4000-8000-000000000001")
        #expect(event.taskRunUUID == run)
        let line = try JSONRPCLineWriter.line(JSONRPCNotification(method: ControlEvent.notificationMethod, params: event))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.components(separatedBy: #""taskRunUUID":"#).count == 2, "\(text)")
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(line))
        #expect(value["params"]?["taskRunUUID"] == .string(run))
        #expect(try value["params"]?.decode(ControlEvent.self) == event)
        let none = ControlEvent(sequence: 5, uptime: 1, payload: payload)
        #expect(try JSONValue.encoding(none)["taskRunUUID"] == payload.taskRunUUID.map(JSONValue.string))
        #expect(try JSONValue.encoding(none).decode(ControlEvent.self) == none)
    }

    @Test func notificationsHaveNoID() throws {
        let line = try JSONRPCLineWriter.line(JSONRPCNotification(
            method: ControlEvent.notificationMethod, params: ControlEvent(sequence: 1, uptime: 2, payload: .eventsLost(EventsLostEvent(count: 1)))))
        #expect(line.last == UInt8(ascii: "\n"))
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(line))
        #expect(value["id"] == nil)
        #expect(value["method"] == "event")
    }
}
