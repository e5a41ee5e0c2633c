import Foundation
import Quality
import RunReport
import TestSupport
import Testing

/// QC and the report on run directories recorded from emulated devices with known faults.
@Suite(
    "Quality of recorded runs", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable && PackagePaths.activetaskctl != nil, "needs umockdev-run and the built activetaskctl"))
struct RecordedRunTests {
    init() { _ = RecordedRun.alsaConfiguration }

    private func check(_ report: QualityReport, _ identifier: String, _ name: String) throws -> QualityCheck {
        try #require(report.checks.first { $0.identifier == identifier && $0.check == name }, "no \(identifier) \(name) check in \(report.checks.map { "\($0.identifier)/\($0.check)" })")
    }

    @Test("Each fault is found with the right figure")
    func faults() async throws {
        let run = try await RecordedRun.make(.init(
            gapSeconds: 0.5, stuckAccelerometerY: true, clippedAccelerometerX: true,
            silentMicrophone: true, clippedMicrophone: true, promptLateness: 0.8, controllerFailure: true))
        let report = try RunQuality.writeReport(runDirectory: run.directory)
        #expect(report.verdict == .failed)

        let gaps = try check(report, "motion/accelerometer", "gaps")
        #expect(gaps.figures["count"] == 1)
        #expect(abs((gaps.figures["totalSeconds"]?.number ?? 0) - 0.5) < 0.001)
        #expect(abs((gaps.figures["longestSeconds"]?.number ?? 0) - 0.5) < 0.001)
        #expect(gaps.figures["longestStepPath"] == "Walk/walk")
        #expect(gaps.verdict == .warning)

        let stuck = try check(report, "motion/accelerometer", "stuck")
        #expect(stuck.verdict == .failed)
        #expect(stuck.figures["axis"] == "y")
        #expect(abs((stuck.figures["value"]?.number ?? 0) - (-5 * RecordedRun.accelScale / 9.80665)) < 1e-12)
        #expect((stuck.figures["longestSeconds"]?.number ?? 0) > 2)

        let clipping = try check(report, "motion/accelerometer", "clipping")
        #expect(clipping.verdict == .failed)
        #expect(clipping.figures["axis"] == "x")
        #expect(abs((clipping.figures["value"]?.number ?? 0) - (-32767 * RecordedRun.accelScale / 9.80665)) < 1e-9)
        let samples = try check(report, "motion/accelerometer", "sampleCount").figures["samples"]?.number ?? 0
        // Every 10th scan was at the rail: about a tenth of the samples.
        #expect(abs((clipping.figures["clippedSamples"]?.number ?? 0) - samples / 10) <= 2)

        let rate = try check(report, "motion/gyro", "rate")
        #expect(rate.figures["requestedHz"] == 100)
        #expect(rate.figures["deviceHz"] == 104)
        #expect(rate.figures["source"] == "notes")
        #expect(try check(report, "motion/gyro", "stuck").verdict == .ok)

        let silence = try check(report, "microphone", "silence")
        #expect(silence.verdict == .failed)
        #expect(silence.figures["fraction"] == 1)
        let clipped = try check(report, "voice", "clipping")
        #expect(clipped.verdict == .failed)
        // A 2.5× sine is at the rails for 1 − 2/π·asin(1/2.5) ≈ 73.8 % of the time.
        #expect(abs((clipped.figures["fraction"]?.number ?? 0) - 0.738) < 0.01)
        #expect(try check(report, "voice", "silence").verdict == .ok)

        let late = try check(report, "prompts", "late")
        #expect(late.verdict == .warning)
        #expect(abs((late.figures["maxLateSeconds"]?.number ?? 0) - 0.8) < 1e-6)
        #expect(late.figures["latestText"] == "Halfway there.")

        let failure = try check(report, "distance_error", "controllerFailure")
        #expect(failure.verdict == .failed)
        #expect(failure.message.contains("GPS receiver"))

        // qc.json on disk is the same report.
        let written = try JSONDecoder().decode(QualityReport.self, from: Data(contentsOf: run.directory.appendingPathComponent("qc.json")))
        #expect(written == report)
    }

    @Test("A clean run is judged ok")
    func clean() async throws {
        let run = try await RecordedRun.make(.init(fusedAndTaskCopy: true))
        let report = try RunQuality.evaluate(runDirectory: run.directory)
        let problems = report.checks(atLeast: .warning).map { "\($0.identifier) \($0.check): \($0.message)" }
        #expect(report.verdict == .ok, "\(problems)")
        let gravity = try check(report, "motion/accelerometer", "gravity")
        #expect(abs((gravity.figures["magnitudeG"]?.number ?? 0) - 1) < 0.01)
        #expect((gravity.figures["stillSeconds"]?.number ?? 0) >= 1.5)
        #expect(try check(report, "motion/gyro", "gyroBias").verdict == .ok)
        #expect(try check(report, "microphone", "levels").figures["seconds"] == 3)
        // The task copy gives the requested rate; the notes the device's.
        let rate = try check(report, "motion/attitude", "rate")
        #expect(rate.figures["source"] == "task")
        #expect(rate.figures["requestedHz"] == 100)
    }

    @Test("The report renders in headless Chromium with its plots and sections", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")))
    func report() async throws {
        let run = try await RecordedRun.make(.init(gapSeconds: 0.5, clippedAccelerometerX: true, promptLateness: 0.8, fusedAndTaskCopy: true))
        let html = run.directory.appendingPathComponent("out.html")
        let output = try await CommandRunner.run(["report", run.directory.path, "--output", html.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == html.path)
        let text = try String(contentsOf: html, encoding: .utf8)
        #expect(!text.contains("<script"))
        // Self-contained: the only URL is the SVG namespace, nothing is fetched.
        let withoutNamespace = text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://") && !withoutNamespace.contains("src="))

        let screenshot = run.directory.appendingPathComponent("shot.png")
        let checker = PackagePaths.root.appendingPathComponent("Tests/QualityTests/Support/check_report.py")
        let result = try await onOwnThread {
            try Self.runProcess("/usr/bin/python3", [checker.path, html.path, screenshot.path])
        }
        #expect(result.status == 0, "\(result.output)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(Set(summary["sections"] as? [String] ?? []).isSuperset(of: ["verdict", "timeline-section", "plots", "quality", "metadata"]))
        #expect(Set(summary["svgs"] as? [String] ?? []).isSuperset(of: ["timeline", "plot-accelerometer", "plot-gyro", "plot-attitude", "plot-userAcceleration", "plot-audio"]))
        #expect((summary["checkRows"] as? Int ?? 0) >= 10)
        #expect(summary["scripts"] as? Int == 0)
        // In the screenshot, each SVG box holds drawn lines in its plotting area, not only a frame.
        let ink = try #require(summary["svgInk"] as? [String: [String: Int]], "\(summary)")
        #expect((ink["timeline"]?["step"] ?? 0) > 2_000, "\(summary)")
        // Lines of a still device lie on top of each other and blend (they are translucent), so
        // line pixels of any hue count.
        for plot in ["plot-accelerometer", "plot-gyro", "plot-attitude", "plot-userAcceleration"] {
            #expect((ink[plot]?["any"] ?? 0) > 400, "\(plot): \(ink[plot] ?? [:])")
        }
        #expect((ink["plot-audio"]?["blue"] ?? 0) > 300 && (ink["plot-audio"]?["orange"] ?? 0) > 300, "\(ink["plot-audio"] ?? [:])")
    }

    static func runProcess(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = try CommandRunner.runBlocking(URL(fileURLWithPath: path), arguments)
        return (output.status, output.standardOutput + output.standardError)
    }
}
