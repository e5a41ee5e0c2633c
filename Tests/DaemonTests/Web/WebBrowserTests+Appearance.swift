import Foundation
import Glibc
import Testing
import TestSupport

extension WebBrowserTests {
    /// Two steps with colours and a learn-more action, two with an image placed as SageResearch
    /// places it, a text question answered on the page's letter keys (docs/kiosk.md, "The screens").
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
        { "identifier": "banner", "type": "instruction", "title": "A picture on top", "text": "Across the screen.",
          "image": { "type": "fetchable", "imageName": "banner", "placementType": "topBackground" } },
        { "identifier": "icon", "type": "instruction", "title": "An icon first", "text": "Small, above the title.",
          "image": { "type": "fetchable", "imageName": "banner", "placementType": "iconBefore" } },
        { "identifier": "name", "type": "simpleQuestion", "title": "Your initials",
          "inputItem": { "type": "string", "placeholder": "Initials" } },
        { "identifier": "done", "type": "completion", "title": "Well done" }
      ]
    }
    """

    @Test("colorMapping colours a step or its parts (checked on the screenshot), learn more shows the action's text in a dialog, images sit where their placementType says, a text field is typed on the letter keys in portrait")
    func colorsAndLearnMore() async throws {
        // A 1×1 PNG drawn at each placement's size.
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
        let browser = try await BrowserRun("weblooks", tasks: ["Looks.json": Data(Self.looksTask.utf8), "banner.png": png])
        let output = try await browser.runScript("browser_appearance.py", [browser.shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")
        await browser.stop()
    }
}
