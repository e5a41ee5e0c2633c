import Foundation
import MyCustomTask
import TaskModel
import TaskNavigation
import Testing

/// The migration guide's two task files, decoded with `MyCustomTask` registered and walked
/// with its navigator.
@Suite struct MyCustomTaskTests {
    static func registry() -> TypeRegistry {
        var registry = TypeRegistry()
        registry.registerTaskType(MyCustomTask.taskType, MyCustomTask.self)
        return registry
    }

    static func load(_ name: String, registry: TypeRegistry = registry()) throws -> TaskDefinition {
        let url = try #require(Bundle.module.url(forResource: "Tasks/\(name)", withExtension: "json"))
        return try TaskLoader(registry: registry).loadTask(path: url.path).task
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var value: Int
        /// The steps walked forward, with the progress shown on each ("current/total").
        var steps: [String]
        var progress: [String]
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "CustomDecoding", value: 5, steps: ["foo/step1", "foo/step2"], progress: ["1/2", "2/2"]),
        // No `value`: 0. The section reuses the identifiers step1 and step2, which sections allow.
        // Inside the section, whose own progress is only estimated, SageResearch shows the
        // task's progress of the section step (3 of 3), as `RSDStepViewModel.progress()` does.
        Case(file: "CustomNavigator", value: 0,
             steps: ["foo/step1", "foo/step2", "foo/step3/step1", "foo/step3/step2"],
             progress: ["1/3", "2/3", "3/3", "3/3"]),
    ]

    @Test(arguments: cases)
    func decodesAndNavigates(_ test: Case) throws {
        let task = try Self.load(test.file)
        #expect(task.type?.rawValue == "myCustomTask")
        #expect(task.custom as? MyCustomTask == MyCustomTask(value: test.value))
        #expect(task.warnings.isEmpty, "\(task.warnings)")
        #expect((task.stepNavigator as? MyCustomNavigator)?.value == test.value)

        var navigator = TaskNavigator(task: task)
        var steps: [String] = []
        var progress: [String] = []
        var transition = try navigator.start()
        while !transition.isFinished {
            steps.append(try #require(navigator.currentStepPath))
            let shown = try #require(navigator.progress)
            #expect(shown.isEstimated)
            progress.append("\(shown.current)/\(shown.total)")
            transition = try navigator.goForward()
        }
        #expect(steps == test.steps)
        #expect(progress == test.progress)
    }

    @Test func goesBackAsTheConditionalNavigatorDoes() throws {
        var navigator = TaskNavigator(task: try Self.load("CustomNavigator"))
        _ = try navigator.start()
        _ = try navigator.goForward()
        _ = try navigator.goForward()
        #expect(navigator.currentStepPath == "foo/step3/step1")
        let back = try navigator.goBack()
        #expect(back.exitedContainers == [StepLocation([2])])
        #expect(navigator.currentStepPath == "foo/step2")
        #expect(throws: NavigationError.atFirstStep) {
            _ = try navigator.goBack()
            _ = try navigator.goBack()
        }
    }

    /// The guide's navigator has no progress markers: a task that gives some still shows the
    /// estimated progress, where a built-in task type counts the markers.
    @Test func ignoresTheTasksProgressMarkers() throws {
        var task = try Self.load("CustomDecoding")
        task.container.progressMarkers = ["step2"]
        var custom = TaskNavigator(task: task)
        _ = try custom.start()
        _ = try custom.goForward()
        #expect(custom.progress == StepProgress(current: 2, total: 2, isEstimated: true))

        var builtIn = TaskNavigator(task: task, stepNavigator: ConditionalStepNavigator())
        _ = try builtIn.start()
        _ = try builtIn.goForward()
        #expect(builtIn.progress == StepProgress(current: 1, total: 1, isEstimated: false))
    }

    static func load(value written: String) throws -> TaskDefinition {
        let json = #"{"identifier": "foo", "type": "myCustomTask", "value": \#(written), "steps": [{"identifier": "step1", "type": "instruction"}]}"#
        let loaded = try TaskLoader(registry: Self.registry()).load(data: Data(json.utf8), displayName: "foo.json", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else { throw TaskLoadError(file: "foo.json", codingPath: "(root)", reason: "The JSON is not a task.") }
        return task
    }

    /// The file, the coding path and the sentence `activetaskctl validate` would print.
    @Test("a bad value is refused, naming where", arguments: [
        (#""five""#, "foo.json: value: Wrong type: expected a number but found a string."),
        ("[5]", "foo.json: value: Wrong type: expected a number but found an array."),
        // Foundation names no key for a fraction read as an integer; the error names the type.
        ("1.5", "foo.json: (root): The keys the task type \"myCustomTask\" adds cannot be decoded ("),
    ])
    func refusesBadValue(_ written: String, _ message: String) throws {
        let error = try #require(throws: TaskLoadError.self) { try Self.load(value: written) }
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    /// As the guide's `decodeIfPresent`, null is no value: 0.
    @Test func nullIsNoValue() throws {
        #expect(try Self.load(value: "null").custom as? MyCustomTask == MyCustomTask(value: 0))
    }

    @Test func withoutTheRegistrationTheTaskRunsAsAnAssessment() throws {
        let task = try Self.load("CustomDecoding", registry: TypeRegistry())
        #expect(task.custom == nil)
        #expect(task.stepNavigator is ConditionalStepNavigator)
        #expect(task.warnings.map(\.codingPath) == ["type"])
    }
}
