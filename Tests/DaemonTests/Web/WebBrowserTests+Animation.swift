import Foundation
import Testing
import TestSupport

extension WebBrowserTests {
    /// An instruction step with an animated image of three frames in 0.6 s (docs/kiosk.md,
    /// "The screens").
    static let animatedTask = """
    {
      "identifier": "Animated", "title": "A moving picture",
      "steps": [
        { "identifier": "moving", "type": "instruction", "title": "Watch the picture",
          "image": { "type": "animated", "imageNames": ["red", "green", "blue"], "animationDuration": 0.6 } },
        { "identifier": "done", "type": "completion", "title": "Well done" }
      ]
    }
    """

    @Test("An animated image shows its frames in turn, and only its first with reduced motion; a second browser during the run shows only that a task is under way, then the list")
    func animatedImage() async throws {
        // One-pixel PNGs: red, green, blue.
        let frames = [
            "red.png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGM4wcAAAAJcAMlDyBJGAAAAAElFTkSuQmCC",
            "green.png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgWMAAAAFEAKH5ZOq+AAAAAElFTkSuQmCC",
            "blue.png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYDgBAADMAMkncsFaAAAAAElFTkSuQmCC",
        ]
        var tasks = ["Animated.json": Data(Self.animatedTask.utf8)]
        for (name, base64) in frames { tasks[name] = try #require(Data(base64Encoded: base64)) }
        let browser = try await BrowserRun("webanim", tasks: tasks)
        let output = try await browser.runScript("browser_animation.py", [])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }
}
