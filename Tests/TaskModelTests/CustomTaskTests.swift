import Foundation
import Testing
import TaskModel

/// What a custom task type decodes beyond an assessment's keys: SageResearch's migration guide's
/// `MyCustomTask` with its `value` (an integer, 0 when absent), here also refusing a negative one.
private struct ValueTask: CustomTask, Equatable {
    var value: Int

    private enum CodingKeys: String, CodingKey { case value }

    init(value: Int) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 0
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "value is \(value); give 0 or more")
        }
    }
}

/// Custom task types registered with their own decoding (docs/custom-tasks.md).
@Suite struct CustomTaskTests {
    static func registry() -> TypeRegistry {
        var registry = TypeRegistry()
        registry.registerTaskType("myCustomTask", ValueTask.self)
        return registry
    }

    static func load(_ text: String, registry: TypeRegistry = registry()) throws(TaskLoadError) -> TaskDefinition {
        let loaded = try TaskLoader(registry: registry).load(data: Data(text.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else {
            throw TaskLoadError(file: "inline", codingPath: "(root)", reason: "The JSON is not a task.")
        }
        return task
    }

    static func json(type: String = "myCustomTask", value: String?) -> String {
        let member = value.map { #""value": \#($0), "# } ?? ""
        return #"{"identifier": "foo", "type": "\#(type)", \#(member)"steps": [{"identifier": "step1", "type": "instruction", "title": "Step 1"}]}"#
    }

    @Test("the registered type decodes its keys beside the assessment's", arguments: [
        ("5", 5), (nil, 0), ("0", 0), ("2147483648", 2_147_483_648), ("null", 0),
    ] as [(String?, Int)])
    func decodesValue(_ written: String?, _ expected: Int) throws {
        let task = try Self.load(Self.json(value: written))
        #expect(task.custom as? ValueTask == ValueTask(value: expected))
        #expect(task.identifier == "foo")
        #expect(task.steps.map(\.identifier) == ["step1"])
        #expect(task.warnings.isEmpty)
        // The key stays in the task as written, for the run's copy of the task.
        #expect(task.properties["value"] == written.map { $0 == "null" ? .null : .integer(Int64(expected)) })
    }

    @Test("a bad value is refused with its coding path and a sentence", arguments: [
        (#""five""#, "value", "Wrong type: expected a number but found a string."),
        ("-1", "value", "value is -1; give 0 or more."),
        ("[1]", "value", "Wrong type: expected a number but found an array."),
        ("{}", "value", "Wrong type: expected a number but found a dictionary."),
        // Foundation's decoder names no key for these: the error names the task type instead of
        // calling the file invalid JSON.
        ("2.5", "(root)", #"The keys the task type "myCustomTask" adds cannot be decoded"#),
        ("1e30", "(root)", #"The keys the task type "myCustomTask" adds cannot be decoded"#),
    ])
    func refusesBadValue(_ written: String, _ codingPath: String, _ reason: String) throws {
        let error = try #require(throws: TaskLoadError.self) { try Self.load(Self.json(value: written)) }
        #expect(error.codingPath == codingPath)
        #expect(error.reason.hasPrefix(reason), "\(error)")
    }

    @Test func otherTypesDoNotDecodeCustomKeys() throws {
        let assessment = try Self.load(Self.json(type: "assessment", value: #""not read""#))
        #expect(assessment.custom == nil)
        let unknown = try Self.load(Self.json(type: "otherTask", value: "5"))
        #expect(unknown.custom == nil)
        #expect(unknown.warnings.map(\.codingPath) == ["type"])
        let standard = try Self.load(Self.json(value: "5"), registry: .standard)
        #expect(standard.custom == nil)
    }

    @Test func registrationIsATaskTypeAndAliasesKeepTheDecoding() throws {
        var registry = Self.registry()
        #expect(registry.isTaskType("myCustomTask"))
        #expect(registry.isCustomTaskType("myCustomTask"))
        #expect(!registry.isCustomTaskType("assessment"))
        try registry.apply(TypeAliasTable(typeAliases: ["legacyTask": "myCustomTask"]))
        let task = try Self.load(Self.json(type: "legacyTask", value: "7"), registry: registry)
        #expect(task.custom as? ValueTask == ValueTask(value: 7))
        // A closure registration decodes the same way.
        var closures = TypeRegistry()
        closures.registerTaskType("myCustomTask") { try ValueTask(from: $0) }
        #expect(try Self.load(Self.json(value: "3"), registry: closures).custom as? ValueTask == ValueTask(value: 3))
    }
}
