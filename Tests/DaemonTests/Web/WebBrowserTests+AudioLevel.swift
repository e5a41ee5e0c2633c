import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    /// A microphone recording over an active step (the fixture's PulseAudio source).
    static let listenTask = """
    {
      "identifier": "Listen", "title": "Room sound",
      "asyncActions": [
        { "identifier": "roomSound", "type": "microphone", "startStepIdentifier": "listening", "stopStepIdentifier": "listening" }
      ],
      "steps": [
        { "identifier": "overview", "type": "overview", "title": "Room sound", "text": "The device listens for a few seconds.",
          "permissions": [{ "permissionType": "microphone", "reason": "The microphone records the room." }] },
        { "identifier": "listening", "type": "active", "duration": 6, "title": "Stay still", "commands": ["transitionAutomatically"] },
        { "identifier": "done", "type": "completion", "title": "Finished" }
      ]
    }
    """

    @Test("While the microphone records, the step shows its level from the daemon's audioLevel events")
    func audioLevel() async throws {
        let browser = try await BrowserRun("weblevel", tasks: ["Listen.json": Data(Self.listenTask.utf8)])
        let output = try await browser.runScript("browser_level.py", [browser.shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")
        await browser.stop()
    }
}
