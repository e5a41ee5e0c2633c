import Foundation
import Testing
import TaskModel
@testable import Session

/// The result rules of docs/runs.md, one table row per navigation story. Each move's result
/// starts at the move's number of seconds, so the rendering `a2@5` shows which visit a
/// result came from.
@Suite struct ResultHistoryTests {
    enum Move: Sendable {
        /// Shows the step at this path (`T/A/a1`).
        case show(String, PathMarker.Direction)
        /// An async result for the owner at this path.
        case async(String, owner: String)
        case leave(String)
        /// A forward command's jump back to the step at this path in a visited section: the
        /// section is entered backward without resuming, then the step shown backward.
        case jump(String)
        case finish
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var moves: [Move]
        /// The task's step history: steps as `id@second`, sections as `id(…)`.
        var history: String
        /// The task's path, `<` after a backward move.
        var path: String
        /// Previous results expected: step path → `id@second`.
        var previous: [String: String] = [:]
        /// Async results expected: owner path → identifiers.
        var asyncResults: [String: [String]] = [:]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "forward through a section",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward), .show("T/b", .forward)],
             history: "intro@0 A[a1@1 a2@2] b@3", path: "intro A b"),
        Case(name: "a step shown again replaces only itself",
             moves: [.show("T/intro", .forward), .show("T/intro", .forward), .show("T/b", .forward)],
             history: "intro@1 b@2", path: "intro b"),
        Case(name: "back within the task keeps the history and trims the path",
             moves: [.show("T/intro", .forward), .show("T/b", .forward), .show("T/intro", .backward)],
             history: "intro@0 b@1 intro@2", path: "intro<",
             previous: ["T/intro": "intro@0", "T/b": "b@1"]),
        // Earlier rows had the section in its parent's history from its first step on; Sage
        // appends it when it is left forward (TaskControllerTests testNavigation_BackFrom5X).
        Case(name: "a section enters its parent's history only when it is left forward",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward)],
             history: "intro@0", path: "intro"),
        Case(name: "back into an ended section resumes its result",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward),
                     .show("T/b", .forward), .show("T/A/a2", .backward)],
             history: "intro@0 A[a1@1 a2@4] b@3", path: "intro A<",
             previous: ["T/A/a2": "a2@2", "T/b": "b@3"]),
        Case(name: "a section gone back into is appended again when it is left forward",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward),
                     .show("T/b", .forward), .show("T/A/a2", .backward), .show("T/b", .forward)],
             history: "intro@0 A[a1@1 a2@4] b@3 A[a1@1 a2@4] b@5", path: "intro A< b"),
        Case(name: "back out of a section to the task leaves it out of the history",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/intro", .backward)],
             history: "intro@2", path: "intro<",
             previous: ["T/intro": "intro@0"]),
        Case(name: "back out of a section and into it again: the new visit is appended as it is left",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .async("motion", owner: "T/A"),
                     .show("T/intro", .backward), .show("T/A/a1", .forward), .show("T/b", .forward)],
             history: "intro@3 A[a1@4] b@5", path: "intro< A b",
             previous: ["T/A/a1": "a1@1"], asyncResults: ["T/A": ["motion"]]),
        Case(name: "jumping forward to a visited section starts a new result with the old one as previous",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/b", .forward), .show("T/A/a1", .forward),
                     .show("T/c", .forward)],
             history: "intro@0 A[a1@1] b@2 A[a1@3] c@4", path: "intro A b A c",
             previous: ["T/A/a1": "a1@1"]),
        Case(name: "a forward command jumping back to a visited section trims the path there and starts a new result",
             moves: [.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/b", .forward), .jump("T/A/a1"),
                     .show("T/c", .forward)],
             history: "intro@0 A[a1@1] b@2 A[a1@3] c@4", path: "intro A< c",
             previous: ["T/A/a1": "a1@1"]),
        Case(name: "nested sections end innermost first",
             moves: [.show("T/S/U/x", .forward), .show("T/S/y", .forward), .show("T/z", .forward)],
             history: "S[U[x@0] y@1] z@2", path: "S z"),
        Case(name: "async results go to their owner, even after it ended",
             moves: [.show("T/A/a1", .forward), .show("T/b", .forward), .async("motion", owner: "T/A"),
                     .async("audio", owner: "T"), .async("motion_error", owner: "T/never"), .async("audio", owner: "T")],
             history: "A[a1@0] b@1", path: "A b",
             asyncResults: ["T/A": ["motion"], "T": ["audio", "motion_error"]]),
        Case(name: "leaving a section ends it before the next step",
             moves: [.show("T/A/a1", .forward), .leave("T/A"), .show("T/b", .forward)],
             history: "A(0-1)[a1@0] b@2", path: "A b"),
        Case(name: "finish ends open sections",
             moves: [.show("T/A/a1", .forward), .finish],
             history: "A(0-1)[a1@0]", path: "A"),
    ]

    static func result(_ identifier: String, at second: Int) -> BaseResult {
        let date = Date(timeIntervalSince1970: Double(second))
        return BaseResult(identifier: identifier, startDate: date, endDate: date)
    }

    static func run(_ moves: [Move]) throws -> ResultHistory {
        var history = ResultHistory(taskIdentifier: "T", taskRunUUID: UUID(), startDate: Date(timeIntervalSince1970: 0))
        for (second, move) in moves.enumerated() {
            let date = Date(timeIntervalSince1970: Double(second))
            switch move {
            case .show(let path, let direction):
                let parts = path.split(separator: "/").map(String.init)
                try history.showStep(path: parts, result: result(parts.last!, at: second), direction: direction)
            case .async(let identifier, let owner):
                history.appendAsyncResult(result(identifier, at: second), ownerPath: owner.split(separator: "/").map(String.init))
            case .jump(let path):
                let parts = path.split(separator: "/").map(String.init)
                try history.enterSection(path: Array(parts.dropLast()), startDate: date, direction: .backward, resume: false)
                try history.showStep(path: parts, result: result(parts.last!, at: second), direction: .backward)
            case .leave(let path):
                history.leaveSection(path: path.split(separator: "/").map(String.init), endDate: date)
            case .finish:
                history.finish(endDate: date)
            }
        }
        return history
    }

    /// `id@second` for steps; `id[…]` for sections, with `(start-end)` when the case's history
    /// names times (`A(1-2)[…]`), so the rows stay short where times do not matter.
    static func render(_ results: [AnyResult], times: Bool) -> String {
        results.map { item -> String in
            if let section = item.result as? SectionResult {
                let span = times ? "(\(Int(section.startDate.timeIntervalSince1970))-\(section.endDateTime.map { String(Int($0.timeIntervalSince1970)) } ?? "open"))" : ""
                return "\(section.identifier)\(span)[\(render(section.stepHistory, times: times))]"
            }
            return "\(item.result.identifier)@\(Int(item.result.startDate.timeIntervalSince1970))"
        }.joined(separator: " ")
    }

    @Test(arguments: cases) func resultRules(_ row: Case) throws {
        let history = try Self.run(row.moves)
        let task = history.taskResult()
        #expect(Self.render(task.stepHistory, times: row.history.contains("(")) == row.history)
        #expect(task.path.map { $0.identifier + ($0.direction == .backward ? "<" : "") }.joined(separator: " ") == row.path)
        for (path, expected) in row.previous {
            let found = history.previousResult(for: path.split(separator: "/").map(String.init))
            #expect(found.map { "\($0.result.identifier)@\(Int($0.result.startDate.timeIntervalSince1970))" } == expected, "previous \(path)")
        }
        for (owner, identifiers) in row.asyncResults {
            let results: [AnyResult]
            if owner == "T" {
                results = task.asyncResults
            } else {
                let section = task.stepHistory.compactMap { $0.result as? SectionResult }.last { $0.identifier == owner.split(separator: "/").last.map(String.init) }
                results = section?.asyncResults ?? []
            }
            #expect(results.map(\.result.identifier) == identifiers, "async results of \(owner)")
        }
    }

    @Test func sectionPathsAndEndDates() throws {
        let history = try Self.run([.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .backward)])
        #expect(Self.render(history.taskResult().stepHistory, times: false) == "intro@0")
        let task = history.taskResult(includingOpenSections: true)
        #expect(task.endDateTime == nil)
        let section = try #require(task.stepHistory[1].result as? SectionResult)
        #expect(section.endDateTime == nil)
        #expect(section.path == [PathMarker(identifier: "a1", direction: .forward), PathMarker(identifier: "a2", direction: .backward)])
        #expect(history.openSectionPaths == [["T", "A"]])
        var finished = history
        finished.finish(endDate: Date(timeIntervalSince1970: 9))
        #expect(finished.taskResult().endDateTime == Date(timeIntervalSince1970: 9))
        #expect((finished.taskResult().stepHistory[1].result as? SectionResult)?.endDateTime == Date(timeIntervalSince1970: 9))
    }

    @Test func setResultReplacesTheStepsLatestResult() throws {
        var history = try Self.run([.show("T/A/a1", .forward)])
        let answered = AnswerResult(identifier: "a1", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 4), value: .integer(3))
        try history.setResult(answered, forStep: ["T", "A", "a1"])
        #expect(history.currentResult(for: ["T", "A", "a1"])?.result as? AnswerResult == answered)
        #expect(Self.render(history.taskResult(includingOpenSections: true).stepHistory, times: false) == "A[a1@0]")
    }

    @Test func pathsOutsideTheTaskAreErrors() {
        var history = ResultHistory(taskIdentifier: "T", taskRunUUID: UUID(), startDate: Date())
        #expect(throws: ResultHistoryError(path: ["X", "a"], taskIdentifier: "T")) {
            try history.showStep(path: ["X", "a"], result: Self.result("a", at: 0), direction: .forward)
        }
    }

    @Test func nestedTasksGiveTaskResults() throws {
        var history = ResultHistory(taskIdentifier: "T", taskRunUUID: UUID(), startDate: Date(timeIntervalSince1970: 0))
        try history.enterSection(path: ["T", "heart"], startDate: Date(timeIntervalSince1970: 0), kind: .task)
        try history.showStep(path: ["T", "heart", "capture"], result: Self.result("capture", at: 1), direction: .forward)
        history.finish(endDate: Date(timeIntervalSince1970: 2))
        let nested = try #require(history.taskResult().stepHistory.first?.result as? TaskResult)
        #expect(nested.identifier == "heart" && nested.taskRunUUID == history.taskRunUUID)
        #expect(nested.stepHistory.map(\.result.identifier) == ["capture"])
    }
}

/// The open sections' own results (run.result's `openSections`), as SageResearch's section
/// path components hold them.
@Suite struct ResultHistoryOpenSectionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var moves: [ResultHistoryTests.Move]
        var open: String
        var testDescription: String { open.isEmpty ? "none open" : open }
    }

    static let rows: [Row] = [
        Row(moves: [.show("T/intro", .forward)], open: ""),
        Row(moves: [.show("T/A/a1", .forward), .show("T/A/a2", .forward)], open: "A(0-open)[a1@0 a2@1]"),
        // An inner section open is not yet in the outer one's history.
        Row(moves: [.show("T/S/y", .forward), .show("T/S/U/x", .forward)], open: "S(0-open)[y@0] U(1-open)[x@1]"),
        // Back into an ended section: its result is open again, without its end date.
        Row(moves: [.show("T/A/a1", .forward), .show("T/b", .forward), .show("T/A/a1", .backward)], open: "A(0-open)[a1@2]"),
        Row(moves: [.show("T/A/a1", .forward), .finish], open: ""),
    ]

    @Test(arguments: rows) func openSections(_ row: Row) throws {
        let history = try ResultHistoryTests.run(row.moves)
        #expect(ResultHistoryTests.render(history.openSectionResults, times: true) == row.open)
    }

    @Test func aResumedRunHasItsSavedSectionOpen() throws {
        let saved = try ResultHistoryTests.run([.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward)])
        let resumed = ResultHistory(resuming: saved.taskResult(includingOpenSections: true), at: ["T", "A", "a2"])
        #expect(ResultHistoryTests.render(resumed.openSectionResults, times: true) == "A(1-open)[a1@1 a2@2]")
    }
}

/// A saved run's history is rebuilt from its task result and goes on where it was saved.
@Suite struct ResultHistoryResumeTests {
    @Test func resumingReopensTheSectionsOfTheSavedStep() throws {
        let saved = try ResultHistoryTests.run([.show("T/intro", .forward), .show("T/A/a1", .forward), .show("T/A/a2", .forward),
                                                .async("motion", owner: "T/A")])
        // The manifest of a saved run keeps the open sections (TaskSession.manifest).
        var resumed = ResultHistory(resuming: saved.taskResult(includingOpenSections: true), at: ["T", "A", "a2"])
        #expect(resumed.openSectionPaths == [["T", "A"]])
        #expect(ResultHistoryTests.render(resumed.taskResult().stepHistory, times: false) == "intro@0 A[a1@1 a2@2]")
        try resumed.showStep(path: ["T", "A", "a2"], result: ResultHistoryTests.result("a2", at: 9), direction: .forward)
        try resumed.showStep(path: ["T", "b"], result: ResultHistoryTests.result("b", at: 10), direction: .forward)
        resumed.appendAsyncResult(ResultHistoryTests.result("audio", at: 10), ownerPath: ["T", "A"])
        let task = resumed.taskResult()
        #expect(ResultHistoryTests.render(task.stepHistory, times: false) == "intro@0 A[a1@1 a2@9] b@10")
        #expect(task.path.map(\.identifier) == ["intro", "A", "b"])
        let section = try #require(task.stepHistory[1].result as? SectionResult)
        #expect(section.asyncResults.map(\.result.identifier) == ["motion", "audio"])
        #expect(section.endDateTime == Date(timeIntervalSince1970: 10))
    }
}
