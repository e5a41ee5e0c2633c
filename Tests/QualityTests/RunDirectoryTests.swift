import Foundation
import Quality
import TestSupport
import Testing

/// Run directories written by hand: the lenient paths of reading a run (missing files, files of
/// other recorders, no task result, CSV motion files, the explicit rate).
@Suite("Reading run directories")
struct RunDirectoryTests {
    /// A 2 s, 50 Hz accelerometer stream lying still, as CSV, with one marker.
    static func motionCSV(start: Double) -> String {
        var text = "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w\n"
        text += "\(start),0,Tap/tap,2026-11-22T10:00:00.000Z,,,,,,,,\n"
        for index in 0..<100 {
            let time = Double(index) / 50
            text += "\(start + time),\(time),Tap/tap,,accelerometer,,,,\(0.001 * Double(index % 3)),-0.00\(2 + index % 2),-1.0\(index % 2),\n"
        }
        return text
    }

    static func fileResult(_ identifier: String, _ path: String, _ type: String, startUptime: Double) -> String {
        #"{"type":"file","identifier":"\#(identifier)","relativePath":"\#(path)","contentType":"\#(type)","startDate":"2026-11-22T10:00:00.000Z","endDate":"2026-11-22T10:00:02.000Z","startUptime":\#(startUptime)}"#
    }

    @Test("Another recorder's JSON gets no checks, a missing file fails, CSV motion is read")
    func lenient() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("tap.csv", Self.motionCSV(start: 100))
        try scratch.write("heartRate.json", #"[{"bpm": 62}, {"bpm": 63}]"#)
        try scratch.write("taskResult.json", """
            {"type":"task","identifier":"Tap","taskRunUUID":"6F9619FF-8B86-D011-B42D-00C04FC964FF",
             "startDate":"2026-11-22T10:00:00.000Z","stepHistory":[],
             "asyncResults":[\(Self.fileResult("tap", "tap.csv", "text/csv", startUptime: 100)),
                             \(Self.fileResult("heartRate", "heartRate.json", "application/json", startUptime: 100)),
                             \(Self.fileResult("gone", "gone.json", "application/json", startUptime: 100))]}
            """)
        let report = try RunQuality.evaluate(runDirectory: scratch.url, requestedFrequency: 50)
        #expect(!report.checks.contains { $0.identifier.hasPrefix("heartRate") })
        let missing = try #require(report.checks.first { $0.identifier == "gone" })
        #expect(missing.check == "file" && missing.verdict == .failed)
        let rate = try #require(report.checks.first { $0.identifier == "tap/accelerometer" && $0.check == "rate" })
        #expect(rate.figures["source"] == "override")
        #expect(abs((rate.figures["achievedHz"]?.number ?? 0) - 50) < 1e-6)
        #expect(rate.verdict == .ok)
        let count = try #require(report.checks.first { $0.identifier == "tap/accelerometer" && $0.check == "sampleCount" })
        #expect(count.figures["samples"] == 100 && count.figures["expectedSamples"] == 100)
        #expect(report.verdict == .failed)
    }

    @Test("A section's recordings and failed controllers are checked once each")
    func sectionResultsOnce() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("tap.csv", Self.motionCSV(start: 100))
        let error = #"{"type":"error","identifier":"sound_error","errorDescription":"The microphone failed.","errorDomain":"activetask","errorCode":4}"#
        try scratch.write("taskResult.json", """
            {"type":"task","identifier":"Tap","taskRunUUID":"6F9619FF-8B86-D011-B42D-00C04FC964FF",
             "startDate":"2026-11-22T10:00:00.000Z",
             "stepHistory":[{"type":"section","identifier":"tap","startDate":"2026-11-22T10:00:00.000Z",
                             "stepHistory":[{"type":"active","identifier":"tapping","startDate":"2026-11-22T10:00:00.000Z"}],
                             "asyncResults":[\(Self.fileResult("tap", "tap.csv", "text/csv", startUptime: 100)), \(error)]}],
             "asyncResults":[]}
            """)
        let report = try RunQuality.evaluate(runDirectory: scratch.url, requestedFrequency: 50)
        #expect(report.checks.filter { $0.identifier == "tap/accelerometer" && $0.check == "rate" }.count == 1, "\(report.checks.map(\.identifier))")
        #expect(report.checks.filter { $0.check == "controllerFailure" }.map(\.identifier) == ["sound_error"])
    }

    @Test("Without a task result the files found are checked, the rate estimated from the data")
    func withoutResults() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("tap.csv", Self.motionCSV(start: 100))
        try scratch.write("metadata.json", #"{"taskIdentifier": "Tap"}"#)
        let report = try RunQuality.evaluate(runDirectory: scratch.url)
        let rate = try #require(report.checks.first { $0.identifier == "tap/accelerometer" && $0.check == "rate" })
        #expect(rate.figures["source"] == "data")
        #expect(abs((rate.figures["requestedHz"]?.number ?? 0) - 50) < 1e-6)
        #expect(report.checks.first { $0.check == "gaps" }?.figures["count"] == 0)
        #expect(report.verdict == .ok)
    }

    @Test("Audio: duration against the recorder's span and overruns from the notes, from a levels file alone")
    func audioFromLevels() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // 3 s of levels for a recorder that ran 6 s, one overrun of 0.4 s, one second at full scale.
        let levels = (1...3).map { second in
            #"{"uptime":\#(100 + Double(second)),"timestamp":\#(second),"stepPath":"Voice/record","timeInterval":1,"average":-20,"peak":\#(second == 2 ? 0 : -6),"unit":"dbFS"}"#
        }
        try scratch.write("voice_levels.json", "[\n" + levels.joined(separator: ",\n") + "\n]\n")
        try scratch.write("taskResult.json", #"""
            {"type":"task","identifier":"Voice","taskRunUUID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","startDate":"2026-11-22T10:00:00.000Z",
             "asyncResults":[{"type":"file","identifier":"voice_levels","relativePath":"voice_levels.json","contentType":"application/json",
               "startDate":"2026-11-22T10:00:00.000Z","endDate":"2026-11-22T10:00:06.000Z","startUptime":100,
               "notes":["overrun of 0.400 s at monotonic 1234.567, filled with silence"]}]}
            """#)
        let report = try RunQuality.evaluate(runDirectory: scratch.url)
        func check(_ name: String) -> QualityCheck? { report.checks.first { $0.identifier == "voice" && $0.check == name } }
        #expect(check("duration")?.figures["shortSeconds"] == 3)
        #expect(check("duration")?.verdict == .failed)
        #expect(check("overruns")?.figures["count"] == 1 && check("overruns")?.figures["totalSeconds"] == 0.4)
        #expect(check("overruns")?.verdict == .warning)
        #expect(check("levels")?.figures["averageDBFS"]?.number.map { abs($0 + 20) < 1e-9 } == true)
        #expect(check("clipping")?.figures["clippedSeconds"] == 1)
        #expect(check("silence")?.verdict == .ok)
    }

    @Test("activetaskctl qc --write and report with its default output", .enabled(if: PackagePaths.activetaskctl != nil))
    func commands() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("tap.csv", Self.motionCSV(start: 100))
        let qc = try await CommandRunner.run(["qc", scratch.url.path, "--write", "--frequency", "50"])
        #expect(qc.status == 0, "\(qc.standardError)")
        let printed = try JSONDecoder().decode(QualityReport.self, from: Data(qc.standardOutput.utf8))
        let written = try JSONDecoder().decode(QualityReport.self, from: Data(contentsOf: scratch.url.appendingPathComponent("qc.json")))
        #expect(printed == written && printed.verdict == .ok)
        let report = try await CommandRunner.run(["report", scratch.url.path])
        #expect(report.status == 0, "\(report.standardError)")
        let path = report.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == scratch.url.appendingPathComponent("report.html").path)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("<svg id=\"plot-accelerometer\""))
        let missing = try await CommandRunner.run(["report", "/nonexistent/run"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("not a run directory"))
    }

    @Test("A directory that is not a run, and a broken task result, give clear errors")
    func errors() throws {
        #expect(throws: QualityError.self) { try RunQuality.evaluate(runDirectory: URL(fileURLWithPath: "/nonexistent/run")) }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("taskResult.json", "{ not json")
        let error = try #require(throws: QualityError.self) { try RunQuality.evaluate(runDirectory: scratch.url) }
        #expect(error.path.hasSuffix("taskResult.json"))
        #expect(error.reason.contains("not valid JSON"))
    }
}
