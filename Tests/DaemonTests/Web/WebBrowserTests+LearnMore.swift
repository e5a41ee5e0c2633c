import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    /// Learn more with a `url` (docs/kiosk.md, "Learn more"): a `videoView` as the corpus's
    /// Recorder_Motion has it (an overview with "Get started" and a `.mov`), a `webView` page
    /// with its own style sheet, style attribute, picture, script and link, a missing video, one
    /// that goes after its button showed, and a page on the web.
    static let learnMoreTask = """
    {
      "identifier": "LearnMore", "title": "Learn more",
      "steps": [
        { "identifier": "intro", "type": "overview", "title": "Motion Recorder",
          "detail": "This activity shows an example of using the motion sensors.",
          "actions": { "goForward": { "type": "default", "buttonTitle": "Get started" },
                       "learnMore": { "type": "videoView", "buttonTitle": "Watch how", "url": "clip.mov" } } },
        { "identifier": "about", "type": "instruction", "title": "About the task",
          "actions": { "learnMore": { "type": "webView", "buttonTitle": "Read more", "url": "About",
                                      "title": "About walking", "closeButtonTitle": "Back to the task" } } },
        { "identifier": "missing", "type": "instruction", "title": "Nothing to watch",
          "actions": { "learnMore": { "type": "videoView", "url": "Missing.mp4" } } },
        { "identifier": "gone", "type": "instruction", "title": "Gone before it was watched",
          "actions": { "learnMore": { "type": "videoView", "url": "Gone.mp4" } } },
        { "identifier": "outside", "type": "instruction", "title": "Elsewhere",
          "actions": { "learnMore": { "type": "webView", "url": "https://example.org/about.html" } } },
        { "identifier": "done", "type": "completion", "title": "Well done" }
      ]
    }
    """

    /// The page: a style sheet and a style attribute the frame must keep, the task's image, a
    /// script that must not run and a link that must lead nowhere.
    static let learnMorePage = """
    <!doctype html>
    <html><head><title>About</title>
    <style>h1 { color: rgb(0, 100, 0); font-family: sans-serif; }</style>
    </head><body>
    <h1>Walking, explained</h1>
    <p id="note" style="color: rgb(0, 0, 139)">Walk at your usual pace.</p>
    <img src="dot.png" alt="A dot">
    <p><a href="https://example.org/">More on the web</a></p>
    <script>document.querySelector("h1").textContent = "A script ran";</script>
    </body></html>
    """

    @Test("Learn more plays a task's video put together from tasks.resource's pieces, shows a task's page in a frame with its styles and image but no script or link, has no button for a missing video and says when one went")
    func learnMoreVideoAndPage() async throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
        let browser = try await BrowserRun("weblearn", tasks: [
            "LearnMore.json": Data(Self.learnMoreTask.utf8), "About.html": Data(Self.learnMorePage.utf8), "dot.png": png,
        ])
        let tasks = browser.fixture.directory.appendingPathComponent("tasks").path
        let output = try await browser.runScript("browser_learnmore.py", [tasks, browser.shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")
        await browser.stop()
    }
}
