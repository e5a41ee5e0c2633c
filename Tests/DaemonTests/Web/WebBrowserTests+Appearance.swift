import Foundation
import Glibc
import Testing
import TestSupport

extension WebBrowserTests {
    /// Two steps with colours and a learn-more action (docs/kiosk.md, "The screens").
    static let looksTask = """
    {
      "identifier": "Looks", "title": "Colours and learn more",
      "steps": [
        { "identifier": "intro", "type": "instruction", "title": "A blue step", "text": "White text on blue.",
          "colorMapping": { "type": "singleColor", "colorStyle": "primary" },
          "actions": { "learnMore": { "type": "default", "buttonTitle": "Why blue?", "title": "About the colour",
                                      "text": "The step asks for its primary colour." } } },
        { "identifier": "placed", "type": "instruction", "title": "A green header", "text": "The body stays white.",
          "colorMapping": { "type": "placementMapping", "placement": { "header": "successGreen", "body": "white", "footer": "white" } },
          "actions": { "learnMore": { "type": "default", "buttonTitle": "Hidden", "text": "Never shown." } },
          "shouldHideActions": ["learnMore"] },
        { "identifier": "done", "type": "completion", "title": "Well done" }
      ]
    }
    """

    @Test("colorMapping colours a step or its parts (checked on the screenshot), learn more shows the action's text in a dialog")
    func colorsAndLearnMore() async throws {
        let fixture = try DaemonFixture("weblooks")
        let tasks = fixture.directory.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: tasks, withIntermediateDirectories: true)
        try Data(Self.looksTask.utf8).write(to: tasks.appendingPathComponent("Looks.json"))
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        let web = try await WebFixture(fixture)
        let shots = Self.screenshotDirectory(default: fixture.directory.appendingPathComponent("screenshots"))
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/browser_appearance.py")
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, web.url, shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)\n\(daemon.output)")
        await web.stop()
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: 10)
    }
}
