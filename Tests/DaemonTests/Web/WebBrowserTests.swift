import Foundation
import Glibc
import Testing
import TestSupport

/// The UI in a real browser: headless Chromium driven through chromedriver (browser_walk.py,
/// python3-selenium) against the real activetask-web and activetaskd (sim IIO, the fixture's
/// ALSA devices). A short walk-and-balance task from the home screen to "Done" at 800×480 and
/// at 1280×800, each step checked for sideways overflow and controls under 48 px, and
/// screenshotted; SimpleSurvey with a wrong answer; a daemon restart; and in extensions
/// a denied permission (`+Permission`), colours
/// and learn more's text (`+Appearance`), learn more's pages and videos (`+LearnMore`), timed
/// steps left on the daemon's events alone (`+StepEnd`), and the example kiosk unit under cage
/// (`+Kiosk`). About a minute and a half; Finger_Tapping with both
/// hands is a suite of its own beside it (`WebBrowserTappingTests`).
///
/// Skipped under a sanitizer (`ACTIVETASK_TEST_TIME_SCALE`): a browser adds minutes to each
/// sanitized pass and tests nothing the sanitizers look at. Skipped with a message when
/// chromium or chromium-driver is missing (scripts/setup.sh installs them).
// One browser at a time in this suite: each Chromium takes a core for seconds, beside the other
// suites (the tapping suite's is the one other).
@Suite(
    "activetask-web: the UI in headless Chromium",
    .serialized,
    .enabled(if: TestTiming.scale == 1, "Under a sanitizer the browser walk is skipped: it costs minutes and checks no memory or threads."),
    .enabled(if: WebFixture.browserAvailable,
             "chromium, chromium-driver or python3-selenium is missing: the browser walk is skipped (scripts/setup.sh installs them)."))
struct WebBrowserTests {
    /// A walk-and-balance task short enough for a test: overview with its permissions, an
    /// instruction with an image, a countdown, a recorded active step with a spoken prompt,
    /// MotorControl's tapping step (its result sent back by the UI), a question, the completion.
    static let task = """
    {
      "identifier": "ShortWalk", "type": "motorControlTask", "title": "Short walk",
      "detail": "Walk for a few seconds.", "estimatedMinutes": 1,
      "asyncActions": [
        { "identifier": "motion", "type": "motion", "startStepIdentifier": "walking", "stopStepIdentifier": "walking",
          "recorderTypes": ["accelerometer", "gyro"], "frequency": 50 }
      ],
      "steps": [
        { "identifier": "overview", "type": "overview", "title": "Walk a few steps",
          "text": "You will walk for a few seconds while the device records its movement.",
          "permissions": [{ "permissionType": "motion", "reason": "The motion sensors measure your gait." }],
          "actions": { "goForward": { "type": "default", "buttonTitle": "Begin" } } },
        { "identifier": "instruction", "type": "instruction", "title": "Put the device in your pocket",
          "text": "Then stand up.", "image": { "type": "fetchable", "imageName": "pocket" } },
        { "identifier": "getReady", "type": "countdown", "duration": 2 },
        { "identifier": "walking", "type": "active", "duration": 3, "title": "Walk",
          "commands": ["transitionAutomatically"], "spokenInstructions": { "start": "Start walking." } },
        { "identifier": "tapping", "type": "tapping", "duration": 3 },
        { "identifier": "feeling", "type": "choiceQuestion", "title": "How did that feel?", "baseType": "string",
          "singleChoice": true, "choices": [{ "value": "fine", "text": "Fine" }, { "value": "hard", "text": "Hard" }] },
        { "identifier": "done", "type": "completion", "title": "Well done", "text": "You have finished." }
      ]
    }
    """

    @Test("From the home screen to \"Done\" at 800×480 and 1280×800: no sideways scrolling, no control under 48 px")
    func walk() async throws {
        // A 1×1 PNG for the instruction's image (tasks.image).
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
        let browser = try await BrowserRun("webwalk", tasks: ["ShortWalk.json": Data(Self.task.utf8), "pocket.png": png])
        let output = try await browser.runScript("browser_walk.py", ["ShortWalk.json", browser.shots.path, "800x480", "1280x800"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: browser.shots.path))?.filter { $0.hasSuffix(".png") } ?? []
        #expect(pictures.count >= 10, "screenshots: \(pictures)")
        // Both runs completed and were kept by the daemon.
        let runs = try await browser.runs()
        let states = runs.compactMap { $0["state"] as? String }
        #expect(states == ["completed", "completed"], "\(runs)")
        // Each run's tapping result holds the taps the browser made, on the buttons it made them on.
        for run in runs {
            let directory = URL(fileURLWithPath: try #require(run["runDirectory"] as? String))
            let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
            let tapping = try #require((result["stepHistory"] as? [[String: Any]])?.first { $0["identifier"] as? String == "tapping" })
            let samples = tapping["samples"] as? [[String: Any]] ?? []
            #expect(tapping["type"] as? String == "tapping", "\(tapping)")
            #expect(samples.compactMap { $0["buttonIdentifier"] as? String } == ["left", "right", "left", "right"], "\(tapping)")
            #expect(tapping["tapCount"] as? Int == 4, "\(tapping)")
        }
        await browser.stop()
    }

    @Test(
        "SimpleSurvey by touch: a wrong answer is refused beside its field, the good answers are stored",
        .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent."))
    func survey() async throws {
        let survey = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Fixtures.catalog + "SimpleSurvey.json")))
        let browser = try await BrowserRun("websurvey", tasks: ["SimpleSurvey.json": survey])
        let output = try await browser.runScript("browser_survey.py", [browser.shots.path])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        let runs = try await browser.runs()
        let run = try #require(runs.first)
        #expect(run["state"] as? String == "completed", "\(runs)")
        let result = try RunFiles.object(URL(fileURLWithPath: try #require(run["runDirectory"] as? String)).appendingPathComponent("taskResult.json"))
        let values = (result["stepHistory"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["identifier"] as? String ?? ""] = "\($1["value"] ?? "none")"
        }
        #expect(values["selectOne"] == "Charlie" && values["pickANumber"] == "-2" && values["year"] == "1999", "\(values)")
        await browser.stop()
    }

    @Test("A daemon restart: the UI says \"Reconnecting\" and comes back by itself")
    func daemonRestart() async throws {
        let run = try await BrowserRun("webrestart", tasks: ["ShortWalk.json": Data(Self.task.utf8)])
        let (fixture, daemon, web) = (run.fixture, run.daemon, run.web)
        let marker = fixture.directory.appendingPathComponent("home-shown").path
        let browser = try fixture.spawn(["/usr/bin/python3", BrowserRun.script("browser_reconnect.py"), web.url, run.shots.path, marker])
        // Once the home screen shows: stop the daemon, leave it down a moment, start it again.
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: marker), browser.ended == nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output)")
        try await Task.sleep(for: .seconds(2))
        let again = try await fixture.start(run.arguments)
        let ended = await browser.waitForExit(within: 60)
        #expect(ended == .exited(0), "\(browser.output)\n\(web.process.output)")
        await web.stop()
        again.send(SIGTERM)
        _ = await again.waitForExit(within: 10)
    }
}
