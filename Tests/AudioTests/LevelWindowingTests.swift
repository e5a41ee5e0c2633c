import Testing

@testable import Audio

@Suite("Level windowing: reads and gap silence cut at one-second boundaries")
struct LevelWindowingTests {
    enum Event: Sendable {
        case read(Int)
        case gap(seconds: Double, following: Int)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var windowFrames: Int
        var frameLimit: Int?
        var events: [Event]
        /// (kind, count, closesWindow, endFrame), kind "s@offset" or "0".
        var runs: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "reads that divide the window", windowFrames: 4, frameLimit: nil,
             events: [.read(2), .read(2), .read(2)],
             runs: ["s@0 2 open 2", "s@0 2 close 4", "s@0 2 open 6"]),
        Case(name: "a read straddling a boundary is split there", windowFrames: 5, frameLimit: nil,
             events: [.read(3), .read(3), .read(5)],
             runs: ["s@0 3 open 3", "s@0 2 close 5", "s@2 1 open 6", "s@0 4 close 10", "s@4 1 open 11"]),
        Case(name: "a gap is filled with silence that closes windows too", windowFrames: 4, frameLimit: nil,
             events: [.read(3), .gap(seconds: 0.6, following: 2), .read(2)],
             runs: ["s@0 3 open 3", "0 1 close 4", "0 4 close 8", "0 1 open 9", "s@0 2 open 11"]),
        Case(name: "the frame limit caps gap silence, leaving room for the read that follows", windowFrames: 4, frameLimit: 8,
             events: [.read(2), .gap(seconds: 1.0, following: 2), .read(2)],
             runs: ["s@0 2 open 2", "0 2 close 4", "0 2 open 6", "s@0 2 close 8"]),
        Case(name: "a negative or empty gap adds nothing", windowFrames: 4, frameLimit: nil,
             events: [.read(1), .gap(seconds: -0.5, following: 1), .read(1)],
             runs: ["s@0 1 open 1", "s@0 1 open 2"]),
    ]

    @Test("Runs, window closings and frame counts", arguments: cases)
    func windowing(_ testCase: Case) {
        var windowing = LevelWindowing(windowFrames: testCase.windowFrames, frameLimit: testCase.frameLimit)
        var runs: [String] = []
        func describe(_ run: LevelWindowing.Run) -> String {
            let kind = switch run.kind {
            case .samples(let offset): "s@\(offset)"
            case .silence: "0"
            }
            return "\(kind) \(run.count) \(run.closesWindow ? "close" : "open") \(run.endFrame)"
        }
        for event in testCase.events {
            switch event {
            case .read(let frames):
                windowing.addSamples(frames) { runs.append(describe($0)) }
            case .gap(let seconds, let following):
                // 10 frames per second keeps the table readable.
                let silence = windowing.silenceFrames(forGap: seconds, rate: 10, followingFrames: following)
                windowing.addSilence(silence) { runs.append(describe($0)) }
            }
        }
        #expect(runs == testCase.runs)
        if let limit = testCase.frameLimit {
            #expect(windowing.isComplete == (windowing.totalFrames >= limit))
            #expect(windowing.framesToRead(period: 320) == max(limit - windowing.totalFrames, 0))
        }
    }
}
