import Testing

@testable import Voice

/// When a clip playing stops for the next one queued (`PromptPlayer.isOvertaken`): only for
/// another step's clip, and only once it falls due before the chunk about to be written ends.
@Suite("Prompt player: another step's clip falling due stops the one playing")
struct PromptOvertakeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var playing: String
        var next: (stepPath: String, due: Double?)?
        var expected: Bool
        var testDescription: String { name }
    }

    /// The chunk about to be written would be heard until 10.05.
    static let writingUntil = 10.05

    static let cases: [Case] = [
        Case(name: "nothing queued", playing: "T/a", next: nil, expected: false),
        Case(name: "the same step's next prompt waits behind it", playing: "T/a", next: ("T/a", 10.0), expected: false),
        Case(name: "another step's prompt due later waits", playing: "T/a", next: ("T/b", 10.05), expected: false),
        Case(name: "another step's prompt due within the chunk cuts", playing: "T/a", next: ("T/b", 10.04), expected: true),
        Case(name: "another step's prompt already late cuts", playing: "T/a", next: ("T/b", 9), expected: true),
        Case(name: "another step's prompt spoken at once cuts", playing: "T/a", next: ("T/b", nil), expected: true),
        Case(name: "a section's other step is another step", playing: "T/sec/a", next: ("T/sec/b", 10), expected: true),
        Case(name: "a clip of no step does not cut", playing: "T/a", next: ("", nil), expected: false),
        Case(name: "a clip of no step is not cut", playing: "", next: ("T/b", nil), expected: false),
    ]

    @Test(arguments: cases)
    func overtaken(_ testCase: Case) {
        let clip = AudioClip(samples: [0, 0], sampleRate: 22_050)
        let playing = PromptPlayer.Item(id: 1, stepPath: testCase.playing, text: "playing", clip: clip, due: 9)
        let next = testCase.next.map { PromptPlayer.Item(id: 2, stepPath: $0.stepPath, text: "next", clip: clip, due: $0.due) }
        #expect(PromptPlayer.isOvertaken(playing, by: next, writingUntil: Self.writingUntil) == testCase.expected)
    }
}
