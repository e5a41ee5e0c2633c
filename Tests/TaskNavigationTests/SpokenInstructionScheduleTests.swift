import Testing
@testable import TaskNavigation

/// docs/task-format.md: start, halfway, numeric, countdown, end; each prompt keeps its key.
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
              expected: [.init(time: 0, text: "Go", key: "start"), .init(time: 15, text: "Half", key: "halfway"), .init(time: 23, text: "Almost", key: "23"), .init(time: 30, text: "Stop", key: "end")]),
        .init(name: "nothing past the duration", table: ["start": "Go", "40": "Late", "30.5": "Late too"], duration: 30,
              expected: [.init(time: 0, text: "Go", key: "start")]),
        .init(name: "countdown spells the last seconds and overrides", table: ["start": "Go", "8": "Replaced", "countdown": "3", "end": "Done"], duration: 10,
              expected: [.init(time: 0, text: "Go", key: "start"), .init(time: 7, text: "three", key: "countdown-3"), .init(time: 8, text: "two", key: "countdown-2"),
                         .init(time: 9, text: "one", key: "countdown-1"), .init(time: 10, text: "Done", key: "end")]),
        .init(name: "countdown ten", table: ["countdown": "10"], duration: 30,
              expected: ["ten", "nine", "eight", "seven", "six", "five", "four", "three", "two", "one"].enumerated().map { .init(time: 20 + Double($0.offset), text: $0.element, key: "countdown-\(10 - $0.offset)") }),
        .init(name: "countdown longer than the step stops at 0", table: ["start": "Go", "countdown": "10"], duration: 3,
              expected: [.init(time: 0, text: "three", key: "countdown-3"), .init(time: 1, text: "two", key: "countdown-2"), .init(time: 2, text: "one", key: "countdown-1")]),
        .init(name: "no duration: only time-0 entries", table: ["start": "Hello", "halfway": "Half", "end": "Bye", "5": "Five", "countdown": "3"], duration: nil,
              expected: [.init(time: 0, text: "Hello", key: "start")]),
        .init(name: "zero duration counts as none", table: ["start": "Hello", "end": "Bye"], duration: 0,
              expected: [.init(time: 0, text: "Hello", key: "start")]),
        .init(name: "a number key at 0 wins over start", table: ["start": "Start", "0": "Zero"], duration: 20,
              expected: [.init(time: 0, text: "Zero", key: "0")]),
        .init(name: "fractional halfway", table: ["halfway": "Half"], duration: 5,
              expected: [.init(time: 2.5, text: "Half", key: "halfway")]),
        .init(name: "unknown keys are ignored", table: ["sometime": "?", "start": "Go"], duration: 5,
              expected: [.init(time: 0, text: "Go", key: "start")]),
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
