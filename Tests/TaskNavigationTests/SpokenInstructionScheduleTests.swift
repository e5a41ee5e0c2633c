import Testing
@testable import TaskNavigation

/// DESIGN.md 2: start, halfway, numeric, countdown, end.
@Suite struct SpokenInstructionScheduleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var table: [String: String]
        var duration: Double?
        var expected: [SpokenInstruction]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        .init(name: "start, halfway, number, end", table: ["start": "Go", "halfway": "Half", "23": "Almost", "end": "Stop"], duration: 30,
              expected: [.init(time: 0, text: "Go"), .init(time: 15, text: "Half"), .init(time: 23, text: "Almost"), .init(time: 30, text: "Stop")]),
        .init(name: "nothing past the duration", table: ["start": "Go", "40": "Late", "30.5": "Late too"], duration: 30,
              expected: [.init(time: 0, text: "Go")]),
        .init(name: "countdown spells the last seconds and overrides", table: ["start": "Go", "8": "Replaced", "countdown": "3", "end": "Done"], duration: 10,
              expected: [.init(time: 0, text: "Go"), .init(time: 7, text: "three"), .init(time: 8, text: "two"), .init(time: 9, text: "one"), .init(time: 10, text: "Done")]),
        .init(name: "countdown ten", table: ["countdown": "10"], duration: 30,
              expected: ["ten", "nine", "eight", "seven", "six", "five", "four", "three", "two", "one"].enumerated().map { .init(time: 20 + Double($0.offset), text: $0.element) }),
        .init(name: "countdown longer than the step stops at 0", table: ["start": "Go", "countdown": "10"], duration: 3,
              expected: [.init(time: 0, text: "three"), .init(time: 1, text: "two"), .init(time: 2, text: "one")]),
        .init(name: "no duration: only time-0 entries", table: ["start": "Hello", "halfway": "Half", "end": "Bye", "5": "Five", "countdown": "3"], duration: nil,
              expected: [.init(time: 0, text: "Hello")]),
        .init(name: "zero duration counts as none", table: ["start": "Hello", "end": "Bye"], duration: 0,
              expected: [.init(time: 0, text: "Hello")]),
        .init(name: "a number key at 0 wins over start", table: ["start": "Start", "0": "Zero"], duration: 20,
              expected: [.init(time: 0, text: "Zero")]),
        .init(name: "fractional halfway", table: ["halfway": "Half"], duration: 5,
              expected: [.init(time: 2.5, text: "Half")]),
        .init(name: "unknown keys are ignored", table: ["sometime": "?", "start": "Go"], duration: 5,
              expected: [.init(time: 0, text: "Go")]),
    ]

    @Test(arguments: cases)
    func schedule(_ testCase: Case) {
        #expect(SpokenInstructionSchedule.entries(testCase.table, duration: testCase.duration) == testCase.expected)
    }

    @Test(arguments: [(1, "one"), (10, "ten"), (13, "thirteen"), (20, "twenty"), (21, "twenty-one"), (100, "one hundred"), (115, "one hundred fifteen"), (2001, "two thousand one")])
    func spelledNumbers(_ number: Int, _ words: String) {
        #expect(SpelledNumber.string(number) == words)
    }
}
