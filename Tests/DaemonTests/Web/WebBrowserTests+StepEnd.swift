import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    /// The end prompt of the first timed step: long enough that its end comes well after the
    /// step's timer.
    static let stepEndPrompt = "Well done. Now stand still, breathe calmly and wait for the next step."

    /// An instruction, an active step whose timer the front end starts and whose `end` prompt
    /// is said as it ends, an active step that starts and ends by itself, the completion.
    static let stepEndTask = """
    {
      "identifier": "StepEnd", "title": "Step ends",
      "steps": [
        { "identifier": "intro", "type": "instruction", "title": "Two timed steps" },
        { "identifier": "speaking", "type": "active", "duration": 2, "title": "Stand",
          "spokenInstructions": { "end": "\(stepEndPrompt)" } },
        { "identifier": "moving", "type": "active", "duration": 2, "title": "Wait", "commands": ["transitionAutomatically"] },
        { "identifier": "done", "type": "completion", "title": "Finished" }
      ]
    }
    """

    @Test("A timed step is left on the daemon's events alone, the page's timers stopped: its timer started as the daemon says, the next step shown once its end prompt was heard, an automatic step moving on without a tap")
    func stepEnd() async throws {
        let browser = try await BrowserRun("webstepend", tasks: ["StepEnd.json": Data(Self.stepEndTask.utf8)])
        // The daemon's side of the same run, read once the browser is done (the socket keeps it).
        let subscriber = try browser.fixture.subscriber(to: ["stepShown", "timerStarted", "timerFinished", "promptFinished", "taskFinished"])
        let output = try await browser.runScript("browser_step_end.py", [browser.shots.path, Self.stepEndPrompt])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")
        guard output.status == 0 else { return await browser.stop() }

        let events = try await offThread {
            var events: [[String: Any]] = []
            while events.last?["kind"] as? String != "taskFinished" { events.append(try subscriber.nextEvent()) }
            return events
        }
        func first(_ kind: String, _ path: String, text: String? = nil) -> (index: Int, event: [String: Any])? {
            events.enumerated().first {
                $0.element["kind"] as? String == kind && $0.element["stepPath"] as? String == path && (text == nil || $0.element["text"] as? String == text)
            }.map { ($0.offset, $0.element) }
        }
        let speaking = try #require(first("stepShown", "StepEnd/speaking"), "\(events)")
        let moving = try #require(first("stepShown", "StepEnd/moving"), "\(events)")
        #expect(speaking.event["startsTimerAutomatically"] as? Bool == false && speaking.event["transitionsAutomatically"] as? Bool == false)
        #expect(moving.event["startsTimerAutomatically"] as? Bool == true && moving.event["transitionsAutomatically"] as? Bool == true)
        // The kiosk started the first step's timer; the daemon showed the next step only once the
        // end prompt had been heard to its end.
        #expect(first("timerStarted", "StepEnd/speaking") != nil, "\(events)")
        let heard = try #require(first("promptFinished", "StepEnd/speaking", text: Self.stepEndPrompt), "\(events)")
        #expect(heard.index < moving.index, "\(events)")
        #expect(try await browser.runs().first?["state"] as? String == "completed")
        await browser.stop()
    }
}
