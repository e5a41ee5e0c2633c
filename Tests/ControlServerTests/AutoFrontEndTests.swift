import ControlClient
import ControlProtocol
import Testing

@Suite struct AutoFrontEndTests {
    static func shown(_ path: String, duration: Double? = nil) -> ControlEvent {
        ControlEvent(sequence: 1, uptime: 0, payload: .stepShown(StepShownEvent(
            stepPath: path, step: ["identifier": .string(path)], type: duration == nil ? "instruction" : "active",
            allowedActions: [.forward], duration: duration)))
    }

    static func timer(_ payload: (StepTimerEvent) -> ControlEventPayload, _ path: String) -> ControlEvent {
        ControlEvent(sequence: 2, uptime: 0, payload: payload(StepTimerEvent(stepPath: path)))
    }

    enum Input { case event(ControlEvent), tick }

    /// (inputs at times, the actions expected from them all).
    static let scripts: [(name: String, inputs: [(Double, Input)], actions: [AutoFrontEnd.Action])] = [
        ("an instruction step goes forward at once", [(0, .event(shown("t/a")))], [.forward(stepPath: "t/a")]),
        ("a timed step waits for its timer, then goes forward",
         [(0, .event(shown("t/w", duration: 30))), (0.2, .event(timer(ControlEventPayload.timerStarted, "t/w"))), (5, .tick),
          (30, .event(timer(ControlEventPayload.timerFinished, "t/w"))), (30.2, .tick), (30.6, .tick), (31, .tick)],
         [.forward(stepPath: "t/w")]),
        ("the session moving on by itself is not forwarded again",
         [(0, .event(shown("t/w", duration: 3))), (0.1, .event(timer(ControlEventPayload.timerStarted, "t/w"))),
          (3, .event(timer(ControlEventPayload.timerFinished, "t/w"))), (3.1, .event(shown("t/x", duration: 5))), (3.7, .tick)],
         []),
        ("a timer nobody starts is started once",
         [(0, .event(shown("t/w", duration: 3))), (0.5, .tick), (1.1, .tick), (1.5, .tick)], [.startTimer]),
        ("a finished timer of another step is ignored",
         [(0, .event(shown("t/w", duration: 3))), (0.1, .event(timer(ControlEventPayload.timerStarted, "t/w"))),
          (0.2, .event(timer(ControlEventPayload.timerFinished, "t/old"))), (2, .tick)], []),
        ("permission requests are granted",
         [(0, .event(ControlEvent(sequence: 1, uptime: 0, payload: .permissionRequest(PermissionRequestEvent(
            requestID: 7, permission: "microphone", actions: ["microphone"], deadlineUptime: 120)))))],
         [.grant(requestID: 7)]),
    ]

    @Test(arguments: scripts.indices)
    func script(index: Int) {
        var frontEnd = AutoFrontEnd()
        var actions: [AutoFrontEnd.Action] = []
        for (time, input) in Self.scripts[index].inputs {
            switch input {
            case .event(let event): actions += frontEnd.receive(event, now: time)
            case .tick: actions += frontEnd.tick(now: time)
            }
        }
        #expect(actions == Self.scripts[index].actions, "\(Self.scripts[index].name)")
    }
}
