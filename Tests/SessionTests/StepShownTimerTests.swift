import Testing

@testable import Session

/// `stepShown.startsTimerAutomatically` by step (docs/protocol.md, "Events"): true exactly where
/// the session starts the step's timer itself, so a front end sends `timer.start` only where it
/// is false.
@Suite("stepShown: whether the session starts a step's timer itself")
struct StepShownTimerTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var step: String
        var startsItself: Bool
        var testDescription: String { "\(step) → \(startsItself)" }
    }

    static let rows: [Row] = [
        Row(step: #"{"identifier": "s", "type": "countdown", "duration": 3}"#, startsItself: true),
        Row(step: #"{"identifier": "s", "type": "active", "duration": 3}"#, startsItself: false),
        Row(step: #"{"identifier": "s", "type": "active", "duration": 3, "commands": ["startTimerAutomatically"]}"#, startsItself: true),
        Row(step: #"{"identifier": "s", "type": "active", "duration": 3, "commands": ["transitionAutomatically"]}"#, startsItself: true),
        Row(step: #"{"identifier": "s", "type": "active", "duration": 3, "commands": ["continueOnFinish"]}"#, startsItself: true),
        Row(step: #"{"identifier": "s", "type": "active", "duration": 3, "commands": ["playSoundOnStart"]}"#, startsItself: false),
        Row(step: #"{"identifier": "s", "type": "tapping", "duration": 3}"#, startsItself: false),
        Row(step: #"{"identifier": "s", "type": "instruction", "title": "No timer"}"#, startsItself: false),
        // No timer to start, whatever its commands say.
        Row(step: #"{"identifier": "s", "type": "instruction", "commands": ["transitionAutomatically"]}"#, startsItself: false),
    ]

    @Test(arguments: rows)
    func startsItself(_ row: Row) throws {
        let machine = try SessionMachineTests.machine(task: #"{"identifier": "t", "steps": ["# + row.step + "]}")
        let step = try #require(machine.task.steps.first)
        #expect(TaskSession.startsTimerItself(step) == row.startsItself)
    }
}
