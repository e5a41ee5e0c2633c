import Foundation
import Glibc
import Testing
import TestSupport
import ZIPFoundation

/// Finger_Tapping in Chromium, a suite of its own: its two 30 s tapping timers run beside the
/// other browser tests instead of after them (docs/testing.md, "Where the time goes").
@Suite(
    "activetask-web: Finger_Tapping in headless Chromium",
    .enabled(if: TestTiming.scale == 1, "Under a sanitizer the browser walk is skipped: it costs minutes and checks no memory or threads."),
    .enabled(if: WebFixture.browserAvailable,
             "chromium, chromium-driver or python3-selenium is missing: the browser walk is skipped (scripts/setup.sh installs them)."))
struct WebBrowserTappingTests {
    /// The touches the browser makes on each hand's tapping step (browser_tapping.py): `L` and
    /// `R` on the left and right button's centre, `N` beside both buttons; `/` reloads the page
    /// there, in the middle of the step, and the taps before it must not be lost.
    static let tapPatterns = ["left": "LRLRLNRLL", "right": "RRL/NRLN"]

    /// MotorControl's tap count: the first button hit, then each hit on the other button.
    static func alternatingCount(_ pattern: String) -> Int {
        var count = 0
        var previous: Character?
        for letter in pattern where letter != "N" && letter != previous {
            count += 1
            previous = letter
        }
        return count
    }

    /// The numbers of a MotorControl geometry string (`"{{x, y}, {w, h}}"`).
    static func numbers(_ geometry: Any?) -> [Double] {
        (geometry as? String ?? "").split(separator: ",").compactMap { Double($0.filter { !"{} ".contains($0) }) }
    }

    @Test(
        "Finger_Tapping with both hands by touch, a reload in the middle of one: each hand's archived result holds exactly the taps made, on the buttons they were made on",
        .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent."))
    func fingerTapping() async throws {
        var tasks: [String: Data] = [:]
        for name in ["Finger_Tapping.json", "TappingSectionStep.json"] {
            tasks[name] = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Fixtures.motorControl + name)))
        }
        let browser = try await BrowserRun("webtapping", tasks: tasks)
        let patterns = Self.tapPatterns.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        let output = try await browser.runScript("browser_tapping.py", ["Finger_Tapping.json", browser.shots.path] + patterns)
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)\n\(browser.daemon.output)")

        let runs = try await browser.runs()
        let run = try #require(runs.first, "\(runs)")
        #expect(run["state"] as? String == "completed", "\(runs)")
        let archive = try Archive(url: URL(fileURLWithPath: try #require(run["archive"] as? String, "\(run)")), accessMode: .read)
        let names = ["L": "left", "R": "right", "N": "none"]
        for (hand, pattern) in Self.tapPatterns.mapValues({ $0.replacingOccurrences(of: "/", with: "") }) {
            // MotorControl's file of the hand's tapping result (docs/protocol.md).
            let entry = try #require(archive["\(hand)_tapping"], "\(archive.map(\.path))")
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let samples = result["samples"] as? [[String: Any]] ?? []
            let buttons = samples.compactMap { $0["buttonIdentifier"] as? String }
            #expect(buttons == pattern.map { names[String($0)] ?? "?" }, "\(hand): \(result)")
            #expect(result["tapCount"] as? Int == Self.alternatingCount(pattern), "\(hand): \(result)")
            #expect(samples.allSatisfy { $0["stepPath"] as? String == "Tapping/\(hand)/tapping" }, "\(hand): \(samples)")
            // Each touch lies inside the frame of the button it names, a touch beside them in neither.
            let frames = ["left": Self.numbers(result["buttonRectLeft"]), "right": Self.numbers(result["buttonRectRight"])]
            let view = Self.numbers(result["viewSize"])
            #expect(frames.values.allSatisfy { $0.count == 4 && $0[2] >= 48 && $0[3] >= 48 } && view.count == 2, "\(hand): \(result)")
            func inside(_ location: [Double], _ frame: [Double]?) -> Bool {
                guard let frame, frame.count == 4, location.count == 2 else { return false }
                return location[0] >= frame[0] && location[0] <= frame[0] + frame[2] && location[1] >= frame[1] && location[1] <= frame[1] + frame[3]
            }
            for sample in samples {
                let location = sample["location"] as? [Double] ?? []
                let button = sample["buttonIdentifier"] as? String ?? ""
                let within = button == "none" ? !inside(location, frames["left"]) && !inside(location, frames["right"]) : inside(location, frames[button])
                #expect(within, "\(hand): \(sample) against \(frames)")
            }
            // MotorControl's layout: the left button on the left half, the right one on the right, both in the lower half.
            if let left = frames["left"], let right = frames["right"], left.count == 4, right.count == 4, view.count == 2 {
                #expect(left[0] + left[2] <= view[0] / 2 && right[0] >= view[0] / 2 && min(left[1], right[1]) >= view[1] / 2, "\(hand): \(result)")
            }
            // Times from the first tap, in order; each touch held for a while (the script holds 40 ms).
            let timestamps = samples.compactMap { $0["timestamp"] as? Double }
            #expect(timestamps.first == 0 && timestamps == timestamps.sorted() && timestamps.count == samples.count, "\(hand): \(timestamps)")
            #expect(samples.allSatisfy { ($0["duration"] as? Double ?? 0) > 0 }, "\(hand): \(samples)")
        }
        await browser.stop()
    }
}
