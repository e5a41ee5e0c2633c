import Foundation
import TestSupport
import Testing
@testable import TaskModel

/// Each kind of bad input is a `TaskLoadError` naming the file and the coding path.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// File name → contents; the first file is loaded.
        var files: [(String, String)]
        var codingPath: String
        var reason: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON",
             files: [("task.json", "{\"identifier\": \"t\",\n \"steps\": [\n {\"identifier\": \"a\" \"type\": \"instruction\"}]}")],
             codingPath: "(root)",
             reason: "The file is not valid JSON: at line 3, column 21, a \",\" or \"}\" is expected here; fix the syntax."),
        Case(name: "truncated JSON",
             files: [("task.json", "{\"identifier\": \"t\", \"steps\": [")],
             codingPath: "(root)",
             reason: "The file is not valid JSON: at line 1, column 31, the file ends before the closing \"]\"; fix the syntax."),
        Case(name: "nesting too deep",
             files: [("task.json", "{\"identifier\": \"t\", \"steps\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}")],
             codingPath: "(root)",
             reason: "The file is not valid JSON: at line 1, column 541, the JSON is nested more than 512 levels deep; fix the syntax."),
        Case(name: "not an object",
             files: [("task.json", "[1, 2]")],
             codingPath: "(root)",
             reason: "The file holds a JSON array, not an object; a task file is one JSON object."),
        Case(name: "missing required key",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"type": "instruction"}]}"#)],
             codingPath: "steps[0].identifier",
             reason: "The required key \"identifier\" is missing; add it."),
        Case(name: "missing steps",
             files: [("task.json", #"{"identifier": "t", "type": "assessment"}"#)],
             codingPath: "steps",
             reason: "The required key \"steps\" is missing; add it."),
        Case(name: "wrong type",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "a", "type": "active", "duration": "long"}]}"#)],
             codingPath: "steps[0].duration",
             reason: "Wrong type: expected a number but found a string."),
        Case(name: "wrong type in an async action",
             files: [("task.json", #"{"identifier": "t", "steps": [{"identifier": "a", "type": "active"}], "asyncActions": [{"identifier": "m", "type": "motion", "recorderTypes": "gyro"}]}"#)],
             codingPath: "asyncActions[0].recorderTypes",
             reason: "Wrong type: expected an array but found a string."),
        Case(name: "transform naming a missing file",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "walk", "type": "transform", "resourceTransformer": {"resourceName": "Walk"}}]}"#)],
             codingPath: "steps[0].resourceTransformer.resourceName",
             reason: "The transform \"walk\" names Walk.json, which does not exist at $DIR/Walk.json; put the file beside the including file or fix resourceName."),
        Case(name: "cycle of transforms",
             files: [
                ("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "a", "type": "transform", "resourceTransformer": {"resourceName": "A.json"}}]}"#),
                ("A.json", #"{"identifier": "a", "type": "section", "steps": [{"identifier": "b", "type": "transform", "resourceTransformer": {"resourceName": "B.json"}}]}"#),
                ("B.json", #"{"identifier": "b", "type": "section", "steps": [{"identifier": "x", "type": "instruction"}, {"identifier": "c", "type": "transform", "resourceTransformer": {"resourceName": "A.json"}}]}"#),
             ],
             codingPath: "steps[0].steps[0].steps[1].resourceTransformer.resourceName",
             reason: "The transform \"c\" loads A.json, which is already being loaded (task.json → A.json → B.json → A.json); transforms must not include each other in a cycle."),
        Case(name: "fault inside a transformed file",
             files: [
                ("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "s", "type": "transform", "resourceTransformer": {"resourceName": "S.json"}}]}"#),
                ("S.json", #"{"identifier": "s", "type": "section", "steps": [{"identifier": "x", "type": "countdown", "duration": -1}]}"#),
             ],
             codingPath: "steps[0].steps[0].duration",
             reason: "The duration must be a number of seconds of at least 0, not -1.0. The fault is in S.json, loaded by the transform \"s\"."),
        Case(name: "duplicate step identifier",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "s", "type": "section", "steps": [{"identifier": "a", "type": "instruction"}, {"identifier": "a", "type": "active"}]}]}"#)],
             codingPath: "steps[0].steps[1].identifier",
             reason: "Duplicate step identifier \"a\": steps[0].steps[0] already uses it; identifiers must be unique within a task or section."),
        Case(name: "nextStepIdentifier naming no step",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "a", "type": "instruction", "nextStepIdentifier": "b"}]}"#)],
             codingPath: "steps[0].nextStepIdentifier",
             reason: "The nextStepIdentifier \"b\" names no step of the task; use a step identifier or \"exit\"."),
        Case(name: "startStepIdentifier outside its scope",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "a", "type": "instruction"}, {"identifier": "s", "type": "section", "asyncActions": [{"identifier": "m", "type": "motion", "startStepIdentifier": "a"}], "steps": [{"identifier": "b", "type": "active"}]}]}"#)],
             codingPath: "steps[1].asyncActions[0].startStepIdentifier",
             reason: "The async action \"m\" names the step \"a\", which is not a step of the task or section declaring it; use the identifier of one of its steps."),
        Case(name: "stopStepIdentifier naming no step",
             files: [("task.json", #"{"identifier": "t", "type": "assessment", "asyncActions": [{"identifier": "mic", "type": "microphone", "stopStepIdentifier": "nowhere"}], "steps": [{"identifier": "a", "type": "active"}]}"#)],
             codingPath: "asyncActions[0].stopStepIdentifier",
             reason: "The async action \"mic\" names the step \"nowhere\", which is not a step of the task or section declaring it; use the identifier of one of its steps."),
    ]

    @Test(arguments: cases)
    func rejected(_ testCase: Case) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var first: String?
        for (name, text) in testCase.files {
            let path = try scratch.write(name, text)
            first = first ?? path
        }
        let path = try #require(first)
        let expected = TaskLoadError(file: path, codingPath: testCase.codingPath,
                                     reason: testCase.reason.replacingOccurrences(of: "$DIR", with: scratch.url.path))
        #expect(throws: expected) { try TaskLoader().load(path: path) }
    }

    @Test func anActionSkippingToAMissingStepIsAWarning() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("task.json", #"{"identifier": "t", "type": "custom", "steps": [{"identifier": "a", "type": "instruction", "actions": {"skip": {"type": "navigation", "skipToIdentifier": "gone"}}}]}"#)
        let loaded = try TaskLoader().load(path: path)
        #expect(loaded.warnings.map(\.description) == [
            "type: warning: Unknown task type \"custom\"; it runs as \"assessment\". Register it (typeAliases) to silence this.",
            "steps[0].actions.skip.skipToIdentifier: warning: The action \"skip\" skips to \"gone\", which names no step of the task; the front end should not offer it.",
        ])
    }

    @Test func aSectionActionMaySkipToAStepOfTheIncludingTask() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("task.json", #"{"identifier": "t", "type": "assessment", "steps": [{"identifier": "intro", "type": "instruction"}, {"identifier": "s", "type": "transform", "resourceTransformer": {"resourceName": "S.json"}}]}"#)
        try scratch.write("S.json", #"{"identifier": "s", "type": "section", "steps": [{"identifier": "x", "type": "active", "actions": {"reviewInstructions": {"type": "navigation", "skipToIdentifier": "intro"}}}]}"#)
        #expect(try TaskLoader().load(path: path).warnings.isEmpty)
    }

    @Test func oversizedFilesAreRefusedBeforeReading() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 50 << 20) // 50 MB, sparse
        try handle.close()
        #expect(throws: TaskLoadError(
            file: path, codingPath: "(root)",
            reason: "The file is 52428800 bytes, more than the 8388608-byte limit for a task file; task files are small JSON documents: split it into section files loaded with \"transform\" steps.")) {
            try TaskLoader().load(path: path)
        }
    }

    @Test func missingAndNonRegularFiles() throws {
        #expect(throws: TaskLoadError(file: "/nonexistent/task.json", codingPath: "(root)",
                                      reason: "The file /nonexistent/task.json does not exist or cannot be read; check the path.")) {
            try TaskLoader().load(path: "/nonexistent/task.json")
        }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        #expect(throws: TaskLoadError(file: scratch.url.path, codingPath: "(root)",
                                      reason: "\(scratch.url.path) is not a regular file; give the path of a JSON task file.")) {
            try TaskLoader().load(path: scratch.url.path)
        }
    }

    @Test func unknownAliasTargetsAreRejected() {
        var registry = TypeRegistry()
        #expect(throws: TypeRegistryError(alias: "wobble", target: "dance")) {
            try registry.apply(TypeAliasTable(typeAliases: ["wobble": "dance"]))
        }
    }
}
