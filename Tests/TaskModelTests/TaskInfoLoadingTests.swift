import Foundation
import TestSupport
import Testing
import TaskModel

/// `taskInfo` steps: their task inline, from the task directory or beside the including file,
/// else a page for the front end (docs/task-format.md).
@Suite struct TaskInfoLoadingTests {
    static let nested = #"{"identifier": "nested", "type": "assessment", "versionString": "3", "steps": [{"identifier": "a", "type": "instruction"}, {"identifier": "b", "type": "instruction"}]}"#

    func load(_ outer: String, files: [String: String] = [:], taskDirectory: (ScratchDirectory) -> URL? = { _ in nil })
        throws -> (TaskDefinition, [TaskWarning]) {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        for (name, text) in files {
            let url = scratch.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let path = scratch.url.appendingPathComponent("outer.json")
        try outer.write(to: path, atomically: true, encoding: .utf8)
        return try TaskLoader(taskDirectory: taskDirectory(scratch)).loadTask(path: path.path)
    }

    func outer(_ step: String) -> String {
        #"{"identifier": "outer", "type": "assessment", "steps": [\#(step), {"identifier": "done", "type": "completion"}]}"#
    }

    @Test func inlineTaskIsNested() throws {
        let (task, warnings) = try load(outer(#"{"identifier": "info", "type": "taskInfo", "task": \#(Self.nested)}"#))
        #expect(task.steps[0].kind == .taskInfo)
        #expect(task.steps[0].container?.steps.map(\.identifier) == ["a", "b"])
        #expect(warnings.isEmpty)
    }

    @Test func taskFromTheTaskDirectoryByTransformerOrIdentifier() throws {
        for step in [#"{"identifier": "info", "type": "taskInfo", "taskTransformer": {"resourceName": "Nested"}}"#,
                     #"{"identifier": "Nested", "type": "taskInfo"}"#] {
            let (task, warnings) = try load(outer(step), files: ["tasks/Nested.json": Self.nested]) { $0.url.appendingPathComponent("tasks") }
            #expect(task.steps[0].container?.steps.map(\.identifier) == ["a", "b"])
            #expect(warnings.isEmpty)
            // Encoded with the task inline, so the run's copy loads again without the directory.
            let encoded = try JSONEncoder().encode(task)
            let again = try TaskLoader().load(data: encoded, displayName: "task.json", baseDirectory: URL(fileURLWithPath: "/nonexistent"))
            guard case .task(let reloaded) = again.document else { Issue.record("not a task"); return }
            #expect(reloaded.steps[0].container?.steps.map(\.identifier) == ["a", "b"])
            #expect(reloaded.steps[0].properties["task"]?.objectValue?["versionString"]?.stringValue == "3")
        }
    }

    @Test func taskBesideTheIncludingFile() throws {
        let (task, _) = try load(outer(#"{"identifier": "info", "type": "taskInfo", "taskTransformer": {"resourceName": "Nested.json"}}"#),
                                 files: ["Nested.json": Self.nested])
        #expect(task.steps[0].container?.steps.count == 2)
    }

    @Test func withoutATaskItIsAPageWithAWarning() throws {
        let (task, warnings) = try load(outer(#"{"identifier": "info", "type": "taskInfo", "title": "About"}"#))
        #expect(task.steps[0].container == nil)
        #expect(warnings.contains { $0.codingPath == "steps[0]" && $0.message.contains("shown to the front end as a step") })
    }

    @Test func aNamedTaskThatIsMissingOrNotATaskIsAnError() throws {
        #expect {
            try load(outer(#"{"identifier": "info", "type": "taskInfo", "taskTransformer": {"resourceName": "Missing"}}"#))
        } throws: { error in
            let error = error as? TaskLoadError
            return error?.codingPath == "steps[0].taskTransformer.resourceName" && error?.reason.contains("Missing.json") == true
        }
        #expect {
            try load(outer(#"{"identifier": "info", "type": "taskInfo", "taskTransformer": {"resourceName": "Step"}}"#),
                     files: ["Step.json": #"{"identifier": "s", "type": "instruction"}"#])
        } throws: { error in
            (error as? TaskLoadError)?.reason.contains("not a task file") == true
        }
        // A task that nests itself is a cycle.
        #expect {
            try load(outer(#"{"identifier": "info", "type": "taskInfo", "taskTransformer": {"resourceName": "outer"}}"#))
        } throws: { error in
            (error as? TaskLoadError)?.reason.contains("cycle") == true
        }
    }
}
