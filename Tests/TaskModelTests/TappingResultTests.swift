import Foundation
import Testing
import TaskModel

/// MotorControl's tapping result: its JSON, its archive name and the checks of a front end's result.
@Suite struct TappingResultTests {
    static func result(identifier: String = "tapping", samples: Int = 2, tapCount: Int = 2) -> TappingResult {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        return TappingResult(
            identifier: identifier, startDate: start, endDate: start.addingTimeInterval(30),
            viewSize: TappingSize(width: 320, height: 640),
            buttonRectLeft: TappingRect(x: 60, y: 500, width: 40, height: 40),
            buttonRectRight: TappingRect(x: 220, y: 500, width: 40, height: 40),
            tapCount: tapCount,
            samples: (0..<samples).map { index in
                TappingSample(stepPath: "Tapping/left/tapping", timestamp: Double(index) * 0.2, uptime: 100 + Double(index) * 0.2,
                              buttonIdentifier: index.isMultiple(of: 2) ? .left : .right, location: [80, 520], duration: 0.1)
            })
    }

    @Test func roundTripsWithMotorControlsGeometryStrings() throws {
        let original = Self.result()
        let data = try ResultCoding.makeEncoder().encode(original)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "tapping")
        #expect(object["viewSize"] as? String == "{320.0, 640.0}")
        #expect(object["buttonRectLeft"] as? String == "{{60.0, 500.0}, {40.0, 40.0}}")
        let sample = try #require((object["samples"] as? [[String: Any]])?.first)
        #expect(sample["location"] as? [Double] == [80, 520])
        let decoded = try ResultCoding.makeDecoder().decode(AnyResult.self, from: data)
        #expect(decoded.result as? TappingResult == original)
    }

    struct NameCase: Sendable {
        var stepPath: String?
        var name: String
    }

    @Test(arguments: [
        NameCase(stepPath: "left", name: "left_tapping"),
        NameCase(stepPath: "right", name: "right_tapping"),
        NameCase(stepPath: "outer/right", name: "right_tapping"),
        NameCase(stepPath: "tapping", name: "tapping"),
        NameCase(stepPath: nil, name: "tapping"),
    ])
    func archiveName(_ row: NameCase) {
        #expect(TappingResult.archiveFileName(identifier: "tapping", stepPath: row.stepPath) == row.name)
    }

    struct GeometryCase: Sendable {
        var text: String
        var count: Int
        var numbers: [Double]?
    }

    @Test(arguments: [
        GeometryCase(text: "{320.0, 640.0}", count: 2, numbers: [320, 640]),
        GeometryCase(text: "{{60, 500}, {40, 40}}", count: 4, numbers: [60, 500, 40, 40]),
        GeometryCase(text: "{320.0}", count: 2, numbers: nil),
        GeometryCase(text: "{a, b}", count: 2, numbers: nil),
        GeometryCase(text: "{1, 2, 3}", count: 2, numbers: nil),
    ])
    func geometry(_ row: GeometryCase) {
        #expect(TappingGeometry.numbers(row.text, count: row.count) == row.numbers)
    }

    struct ProblemCase: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable (inout TappingResult) -> Void
        var codingPath: String?
        var testDescription: String { name }
    }

    @Test(arguments: [
        ProblemCase(name: "fits", change: { _ in }, codingPath: nil),
        ProblemCase(name: "no samples", change: { $0.samples = nil; $0.tapCount = 0 }, codingPath: nil),
        ProblemCase(name: "another step", change: { $0.identifier = "tremor" }, codingPath: "identifier"),
        ProblemCase(name: "ends before it starts", change: { $0.endDate = $0.startDate.addingTimeInterval(-1) }, codingPath: "endDate"),
        ProblemCase(name: "NaN view size", change: { $0.viewSize.width = .nan }, codingPath: "viewSize"),
        ProblemCase(name: "empty view", change: { $0.viewSize.height = 0 }, codingPath: "viewSize"),
        ProblemCase(name: "infinite button", change: { $0.buttonRectLeft.x = .infinity }, codingPath: "buttonRectLeft"),
        ProblemCase(name: "flat button", change: { $0.buttonRectRight.height = 0 }, codingPath: "buttonRectRight"),
        ProblemCase(name: "too many samples", change: {
            $0.samples = Array(repeating: $0.samples![0], count: TappingResult.sampleLimit + 1)
        }, codingPath: "samples"),
        ProblemCase(name: "more taps than samples", change: { $0.tapCount = 3 }, codingPath: "tapCount"),
        ProblemCase(name: "negative taps", change: { $0.tapCount = -1 }, codingPath: "tapCount"),
        ProblemCase(name: "NaN timestamp", change: { $0.samples![1].timestamp = .nan }, codingPath: "samples[1].timestamp"),
        ProblemCase(name: "NaN uptime", change: { $0.samples![0].uptime = .nan }, codingPath: "samples[0].uptime"),
        ProblemCase(name: "negative duration", change: { $0.samples![1].duration = -0.5 }, codingPath: "samples[1].duration"),
        ProblemCase(name: "one coordinate", change: { $0.samples![0].location = [1] }, codingPath: "samples[0].location"),
        ProblemCase(name: "NaN location", change: { $0.samples![1].location = [.nan, 2] }, codingPath: "samples[1].location"),
    ])
    func validation(_ row: ProblemCase) {
        var result = Self.result()
        row.change(&result)
        #expect(result.problem(forStep: "tapping")?.codingPath == row.codingPath)
    }
}
