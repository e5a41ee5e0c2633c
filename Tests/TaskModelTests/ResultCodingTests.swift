import Foundation
import Testing
@testable import TaskModel

/// Results encode with SageResearch's keys and timestamps and decode back through `AnyResult`.
@Suite struct ResultCodingTests {
    /// 2017-10-16T22:28:09.000-07:00, SageResearch's example date.
    static let start = Date(timeIntervalSince1970: 1_508_218_089)
    static let end = start.addingTimeInterval(20.5)
    static let runUUID = UUID(uuidString: "8A0B5E5B-2C93-4B5C-8E0C-1B6A7C0D9E11")!

    static var sample: TaskResult {
        TaskResult(
            identifier: "WalkAndBalance", taskRunUUID: runUUID, startDate: start, endDate: end,
            stepHistory: [
                AnyResult(BaseResult(identifier: "overview", startDate: start, endDate: start)),
                AnyResult(SectionResult(
                    identifier: "walk", startDate: start, endDate: end,
                    stepHistory: [AnyResult(NavigationResult(identifier: "walking", startDate: start, endDate: end, skipToIdentifier: "pocket"))],
                    asyncResults: [AnyResult(FileResult(identifier: "motion", startDate: start, endDate: end, relativePath: "walk_motion.json", contentType: "application/json", startUptime: 1234.5))],
                    path: [PathMarker(identifier: "walking", direction: .forward)])),
                AnyResult(CollectionResult(identifier: "form", startDate: start, endDate: end, children: [
                    AnyResult(AnswerResult(identifier: "age", startDate: start, endDate: end, answerType: .object(["type": .string("integer")]), value: .integer(42), questionText: "How old are you?")),
                ])),
            ],
            asyncResults: [AnyResult(ErrorResult(identifier: "roomSound_error", startDate: start, endDate: end, errorDescription: "The microphone was unplugged.", errorDomain: "ALSA", errorCode: -19))],
            path: [PathMarker(identifier: "overview", direction: .forward), PathMarker(identifier: "walk", direction: .forward),
                   PathMarker(identifier: "form", direction: .forward)],
            assessmentIdentifier: "walk-and-balance", schemaIdentifier: "WalkAndBalance", versionString: "3")
    }

    /// The encoded form, in UTC so the expectation does not depend on the machine's zone.
    static let expectedJSON = """
    {"assessmentIdentifier":"walk-and-balance",\
    "asyncResults":[{"endDate":"2017-10-17T05:28:29.500Z","errorCode":-19,"errorDescription":"The microphone was unplugged.","errorDomain":"ALSA","identifier":"roomSound_error","startDate":"2017-10-17T05:28:09.000Z","type":"error"}],\
    "endDate":"2017-10-17T05:28:29.500Z","identifier":"WalkAndBalance",\
    "path":[{"direction":"forward","identifier":"overview"},{"direction":"forward","identifier":"walk"},{"direction":"forward","identifier":"form"}],\
    "schemaIdentifier":"WalkAndBalance","startDate":"2017-10-17T05:28:09.000Z",\
    "stepHistory":[{"endDate":"2017-10-17T05:28:09.000Z","identifier":"overview","startDate":"2017-10-17T05:28:09.000Z","type":"base"},\
    {"asyncResults":[{"contentType":"application/json","endDate":"2017-10-17T05:28:29.500Z","identifier":"motion","relativePath":"walk_motion.json","startDate":"2017-10-17T05:28:09.000Z","startUptime":1234.5,"type":"file"}],\
    "endDate":"2017-10-17T05:28:29.500Z","identifier":"walk","path":[{"direction":"forward","identifier":"walking"}],"startDate":"2017-10-17T05:28:09.000Z",\
    "stepHistory":[{"endDate":"2017-10-17T05:28:29.500Z","identifier":"walking","skipToIdentifier":"pocket","startDate":"2017-10-17T05:28:09.000Z","type":"base"}],"type":"section"},\
    {"children":[{"answerType":{"type":"integer"},"endDate":"2017-10-17T05:28:29.500Z","identifier":"age","questionText":"How old are you?","startDate":"2017-10-17T05:28:09.000Z","type":"answer","value":42}],\
    "endDate":"2017-10-17T05:28:29.500Z","identifier":"form","startDate":"2017-10-17T05:28:09.000Z","type":"collection"}],\
    "taskRunUUID":"8A0B5E5B-2C93-4B5C-8E0C-1B6A7C0D9E11","type":"task","versionString":"3"}
    """

    static func utcEncoder() -> JSONEncoder {
        let encoder = ResultCoding.makeEncoder(prettyPrinted: false)
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date, timeZone: .gmt))
        }
        return encoder
    }

    @Test func taskResultEncodesWithSageResearchKeysAndTimestamps() throws {
        let data = try Self.utcEncoder().encode(Self.sample)
        #expect(String(decoding: data, as: UTF8.self) == Self.expectedJSON)
    }

    @Test func resultsRoundTripThroughAnyResult() throws {
        let decoded = try ResultCoding.makeDecoder().decode(AnyResult.self, from: Data(Self.expectedJSON.utf8))
        let task = try #require(decoded.result as? TaskResult)
        #expect(task.taskRunUUID == Self.runUUID)
        #expect(task.startDate == Self.start)
        #expect(task.endDate == Self.end)
        #expect(task.path.map(\.identifier) == ["overview", "walk", "form"])
        #expect(task.versionString == "3" && task.schemaIdentifier == "WalkAndBalance" && task.assessmentIdentifier == "walk-and-balance")
        let section = try #require(task.stepHistory[1].result as? SectionResult)
        #expect(section.stepHistory[0].skipToIdentifier == "pocket")
        // A navigation result is written as the base result it wraps.
        #expect(section.stepHistory[0].result is BaseResult)
        #expect(section.asyncResults[0].result as? FileResult == FileResult(identifier: "motion", startDate: Self.start, endDate: Self.end, relativePath: "walk_motion.json", contentType: "application/json", startUptime: 1234.5))
        let answer = try #require((task.stepHistory[2].result as? CollectionResult)?.children[0].result as? AnswerResult)
        #expect(answer.value == .integer(42))
        #expect(task.asyncResults[0].result is ErrorResult)
        // Encoding what was decoded gives the same bytes.
        #expect(String(decoding: try Self.utcEncoder().encode(decoded), as: UTF8.self) == Self.expectedJSON)
    }

    /// A run still going has no `endDate` and, before any recorder finished, no `asyncResults`:
    /// both keys are left out, and a result without them decodes.
    @Test func openResultsOmitEndDateAndAsyncResults() throws {
        let open = TaskResult(identifier: "t", taskRunUUID: Self.runUUID, startDate: Self.start,
                              stepHistory: [AnyResult(SectionResult(identifier: "s", startDate: Self.start))])
        let text = String(decoding: try Self.utcEncoder().encode(open), as: UTF8.self)
        #expect(text == #"{"identifier":"t","path":[],"startDate":"2017-10-17T05:28:09.000Z","stepHistory":[{"identifier":"s","path":[],"startDate":"2017-10-17T05:28:09.000Z","stepHistory":[],"type":"section"}],"taskRunUUID":"8A0B5E5B-2C93-4B5C-8E0C-1B6A7C0D9E11","type":"task"}"#)
        let decoded = try ResultCoding.makeDecoder().decode(TaskResult.self, from: Data(text.utf8))
        #expect(decoded.endDateTime == nil)
        #expect(decoded.endDate == Self.start)
        #expect(decoded.asyncResults.isEmpty)
        #expect((decoded.stepHistory[0].result as? SectionResult)?.endDateTime == nil)
        // SageResearch 3 results have no `path`: they decode with an empty one.
        let old = #"{"type":"task","identifier":"t","taskRunUUID":"8A0B5E5B-2C93-4B5C-8E0C-1B6A7C0D9E11","startDate":"2017-10-16T22:28:09.000-07:00","stepHistory":[]}"#
        #expect(try ResultCoding.makeDecoder().decode(TaskResult.self, from: Data(old.utf8)).path.isEmpty)
    }

    @Test func legacyNavigationTypeStillDecodes() throws {
        let json = #"{"type": "navigation", "identifier": "a", "startDate": "2017-10-16T22:28:09.000-07:00", "endDate": "2017-10-16T22:28:09.000-07:00", "skipToIdentifier": "b"}"#
        let decoded = try ResultCoding.makeDecoder().decode(AnyResult.self, from: Data(json.utf8))
        #expect(decoded.skipToIdentifier == "b")
        #expect(String(decoding: try Self.utcEncoder().encode(decoded), as: UTF8.self).contains(#""type":"base""#))
    }

    @Test func localTimestampsCarryTheirOffset() throws {
        let text = Timestamp.string(from: Self.start, timeZone: TimeZone(secondsFromGMT: -7 * 3600)!)
        #expect(text == "2017-10-16T22:28:09.000-07:00")
        #expect(Timestamp.date(from: "2017-10-16T22:28:09.000-07:00") == Self.start)
        let parsed = try #require(Timestamp.date(from: "2018-01-30T15:13:20.597-02:30"))
        #expect(abs(parsed.timeIntervalSince1970 - 1_517_334_200.597) < 0.0005)
        #expect(Timestamp.string(from: parsed, timeZone: TimeZone(secondsFromGMT: -(2 * 3600 + 1800))!) == "2018-01-30T15:13:20.597-02:30")
    }

    @Test func unknownResultTypesAreRejectedClearly() {
        let json = #"{"type": "mystery", "identifier": "x", "startDate": "2017-10-16T22:28:09.000-07:00", "endDate": "2017-10-16T22:28:09.000-07:00"}"#
        #expect {
            try ResultCoding.makeDecoder().decode(AnyResult.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "Unknown result type \"mystery\"; expected one of answer, base, collection, error, file, navigation, section, tapping, task."
        }
    }
}
