import Foundation
import TestSupport
import Testing
@testable import TaskModel

/// A configuration an embedder registers for its own async action type.
private struct HeartRateConfiguration: AsyncActionConfiguration, Equatable {
    var identifier: String
    var startStepIdentifier: String?
    var stopStepIdentifier: String?
    var cameraPosition: String
    var asyncActionType: AsyncActionType { AsyncActionType(rawValue: "heartRate") }
    var permissionTypes: [PermissionType] { [.camera] }
}

@Suite struct TypeRegistryTests {
    static let task = #"""
    {"identifier": "t", "type": "studyTask",
     "asyncActions": [
        {"identifier": "hr", "type": "heartRate", "cameraPosition": "back", "startStepIdentifier": "a"},
        {"identifier": "gps", "type": "weather", "units": "metric"}
     ],
     "steps": [{"identifier": "a", "type": "pause", "duration": 3}]}
    """#

    private func load(_ registry: TypeRegistry) throws -> TaskDefinition {
        let loaded = try TaskLoader(registry: registry).load(data: Data(Self.task.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else { throw TaskLoadError(file: "inline", codingPath: "(root)", reason: "not a task") }
        return task
    }

    @Test func standardRegistryKeepsUnknownTypes() throws {
        let task = try load(.standard)
        #expect(task.warnings.map(\.description) == ["type: warning: Unknown task type \"studyTask\"; it runs as \"assessment\". Register it (typeAliases) to silence this."])
        #expect(task.steps[0].kind == .ui)
        let generic = try #require(task.asyncActions[0] as? GenericAsyncActionConfiguration)
        #expect(generic.asyncActionType == AsyncActionType(rawValue: "heartRate"))
        #expect(generic.startStepIdentifier == "a")
        #expect(generic.properties["cameraPosition"] == .string("back"))
        #expect(try JSONValue.encoding(generic) == JSONValue.object([
            "identifier": .string("hr"), "type": .string("heartRate"), "cameraPosition": .string("back"), "startStepIdentifier": .string("a"),
        ]))
    }

    @Test func embedderRegistrationsApply() throws {
        var registry = TypeRegistry()
        registry.registerTaskType("studyTask")
        registry.registerStepType("pause", as: .countdown)
        registry.registerAsyncActionType(AsyncActionType(rawValue: "heartRate")) { decoder in
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            return HeartRateConfiguration(
                identifier: try container.decode(String.self, forKey: AnyCodingKey("identifier")),
                startStepIdentifier: try container.decodeIfPresent(String.self, forKey: AnyCodingKey("startStepIdentifier")),
                stopStepIdentifier: nil,
                cameraPosition: try container.decode(String.self, forKey: AnyCodingKey("cameraPosition")))
        }
        let task = try load(registry)
        #expect(task.warnings.isEmpty)
        #expect(task.steps[0].kind == .countdown)
        #expect(task.steps[0].transitionsAutomatically)
        #expect(task.asyncActions[0] as? HeartRateConfiguration == HeartRateConfiguration(identifier: "hr", startStepIdentifier: "a", cameraPosition: "back"))
        #expect(task.asyncActions[1] is GenericAsyncActionConfiguration)
    }

    @Test func aliasTableDecodesFromConfiguration() throws {
        let table = try JSONDecoder().decode(TypeAliasTable.self, from: Data(#"{"typeAliases": {"handInstruction": "instruction", "tapping": "active", "studyTask": "assessment", "gait": "motion"}}"#.utf8))
        var registry = TypeRegistry()
        try registry.apply(table)
        #expect(registry.stepKind(for: StepType(rawValue: "handInstruction")) == .instruction)
        #expect(registry.stepKind(for: StepType(rawValue: "tapping")) == .active)
        #expect(registry.isTaskType("studyTask"))
        #expect(registry.isAsyncActionType("gait"))
        #expect(registry.stepKind(for: StepType(rawValue: "somethingElse")) == .ui)
    }

    @Test func stepsEncodeAsWrittenWithTransformsResolved() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("task.json", #"{"identifier": "t", "type": "assessment", "extra": {"k": [1, 2.5, null]}, "steps": [{"identifier": "s", "type": "transform", "resourceTransformer": {"resourceName": "S.json"}}]}"#)
        try scratch.write("S.json", #"{"identifier": "inner", "type": "section", "steps": [{"identifier": "x", "type": "custom", "colorMapping": {"type": "singleColor"}}]}"#)
        let (task, _) = try TaskLoader().loadTask(path: path)
        #expect(try JSONValue.encoding(task) == .object([
            "identifier": .string("t"), "type": .string("assessment"),
            "extra": .object(["k": .array([.integer(1), .number(2.5), .null])]),
            "steps": .array([.object([
                "identifier": .string("s"), "type": .string("section"),
                "steps": .array([.object(["identifier": .string("x"), "type": .string("custom"), "colorMapping": .object(["type": .string("singleColor")])])]),
            ])]),
        ]))
    }
}
