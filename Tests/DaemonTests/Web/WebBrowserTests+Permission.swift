import Foundation
import Glibc
import Testing
import TestSupport

extension WebBrowserTests {
    /// A task whose motion recording needs the motion permission, which the browser denies;
    /// with `endsOnInterrupt` the task says `shouldEndOnInterrupt` (docs/session.md, "Permissions").
    static func deniedTask(_ identifier: String, endsOnInterrupt: Bool) -> String {
        """
        {
          "identifier": "\(identifier)", "title": "\(identifier)", "shouldEndOnInterrupt": \(endsOnInterrupt),
          "asyncActions": [{ "identifier": "motion", "type": "motion", "recorderTypes": ["accelerometer"], "frequency": 50 }],
          "steps": [
            { "identifier": "overview", "type": "overview", "title": "Movement",
              "text": "The device records how it moves.",
              "permissions": [{ "permissionType": "motion", "reason": "The motion sensors measure how you move." }] },
            { "identifier": "instruction", "type": "instruction", "title": "Nothing to do", "text": "Go on." },
            { "identifier": "done", "type": "completion", "title": "Finished" }
          ]
        }
        """
    }

    /// A task whose motion and microphone recorders start together: two questions open at once.
    static let bothAllowedTask = """
    {
      "identifier": "BothAllowed", "title": "BothAllowed",
      "asyncActions": [
        { "identifier": "motion", "type": "motion", "recorderTypes": ["accelerometer"], "frequency": 50,
          "startStepIdentifier": "record", "stopStepIdentifier": "record" },
        { "identifier": "microphone", "type": "microphone", "startStepIdentifier": "record", "stopStepIdentifier": "record" }
      ],
      "steps": [
        { "identifier": "overview", "type": "overview", "title": "Movement and sound",
          "permissions": [{ "permissionType": "motion", "reason": "The motion sensors measure how you move." },
                          { "permissionType": "microphone", "reason": "The microphone records the sound around you." }] },
        { "identifier": "instruction", "type": "instruction", "title": "Nothing to do", "text": "Go on." },
        { "identifier": "record", "type": "active", "duration": 1, "commands": ["transitionAutomatically"] },
        { "identifier": "done", "type": "completion", "title": "Finished" }
      ]
    }
    """

    @Test("A denied permission: the UI shows the daemon's sentence and the task goes on, or ends as failed saying why (shouldEndOnInterrupt); two questions open at once are asked in turn")
    func deniedPermission() async throws {
        let browser = try await BrowserRun("webdeny", tasks: [
            "GoesOn.json": Data(Self.deniedTask("GoesOn", endsOnInterrupt: false).utf8),
            "EndsOnDenial.json": Data(Self.deniedTask("EndsOnDenial", endsOnInterrupt: true).utf8),
            "BothAllowed.json": Data(Self.bothAllowedTask.utf8),
        ])
        let output = try await browser.runScript("browser_permission.py", [browser.shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")

        let runs = try await browser.runs()
        let states = runs.reduce(into: [String: String]()) {
            $0[$1["taskIdentifier"] as? String ?? ""] = $1["state"] as? String
        }
        #expect(states == ["GoesOn": "completed", "EndsOnDenial": "failed", "BothAllowed": "completed"], "\(runs)")
        // Both answered: neither recorder has an error result.
        let both = try #require(runs.first { $0["taskIdentifier"] as? String == "BothAllowed" })
        let bothResult = try RunFiles.object(URL(fileURLWithPath: try #require(both["runDirectory"] as? String)).appendingPathComponent("taskResult.json"))
        let identifiers = (bothResult["asyncResults"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
        #expect(identifiers.contains("motion") && identifiers.contains("microphone_levels") && !identifiers.contains { $0.hasSuffix("_error") }, "\(bothResult)")
        // The run that went on records the denial as the action's error result.
        let goesOn = try #require(runs.first { $0["taskIdentifier"] as? String == "GoesOn" })
        let result = try RunFiles.object(URL(fileURLWithPath: try #require(goesOn["runDirectory"] as? String)).appendingPathComponent("taskResult.json"))
        let error = (result["asyncResults"] as? [[String: Any]] ?? []).first { $0["identifier"] as? String == "motion_error" }
        #expect((error?["errorDescription"] as? String)?.contains("denied") == true, "\(result)")
        await browser.stop()
    }
}
