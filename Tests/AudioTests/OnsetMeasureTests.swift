import Testing
import Voice

/// How a prompt's onset is taken from the device's reports (docs/audio.md, "Voice prompts").
@Suite("Onset measures")
struct OnsetMeasureTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var first: Double
        var firstReported = true
        var later: Double?
        var laterReported = true
        var onset: Double
        var measure: OnsetMeasure
        var testDescription: String {
            "first \(first)\(firstReported ? "" : " (no delay)"), later \(later.map { "\($0)" } ?? "none")\(laterReported ? "" : " (no delay)")"
        }
    }

    static let rows: [Row] = [
        // A later report within 20 ms confirms the first.
        Row(first: 10.0, later: 10.0, onset: 10.0, measure: .deviceDelay),
        Row(first: 10.0, later: 10.019, onset: 10.0, measure: .deviceDelay),
        // A later report more than 20 ms later wins: the first came before the server's latency.
        Row(first: 10.0, later: 10.021, onset: 10.021, measure: .deviceDelayLaterReport),
        Row(first: 10.0, later: 10.3, onset: 10.3, measure: .deviceDelayLaterReport),
        // A clip too short for a second report keeps the first.
        Row(first: 10.0, later: nil, onset: 10.0, measure: .deviceDelayFirstReport),
        // A stream that started with an empty device reports no delay at first, then one.
        Row(first: 10.0, firstReported: false, later: 10.24, onset: 10.24, measure: .deviceDelayLaterReport),
        Row(first: 10.0, firstReported: false, later: 10.0, onset: 10.0, measure: .deviceDelayLaterReport),
        // A device that never reports a delay: when the frame was handed over.
        Row(first: 10.0, firstReported: false, later: 10.0, laterReported: false, onset: 10.0, measure: .handedToDevice),
        Row(first: 10.0, firstReported: false, later: nil, onset: 10.0, measure: .handedToDevice),
        // A later report without a delay does not overrule a first one with it.
        Row(first: 10.0, later: 10.3, laterReported: false, onset: 10.0, measure: .deviceDelayFirstReport),
    ]

    @Test("The onset and its measure", arguments: rows)
    func judge(row: Row) {
        let judged = OnsetMeasure.judge(first: row.first, firstReported: row.firstReported, later: row.later, laterReported: row.laterReported)
        #expect(judged.onset == row.onset)
        #expect(judged.measure == row.measure)
    }
}
