public import TaskModel
/// One answer the front end collected on a step, for `run.forward`.
public struct StepAnswer: Sendable, Hashable, ControlSchemaDescribing {
    /// The answer's identifier (the question's or input item's identifier).
    public var identifier: String
    /// The value as JSON (number, string, bool, array, object or null).
    public var value: JSONValue
    /// SageResearch's answer type object, e.g. `{"type": "integer"}`; inferred from the value when absent.
    public var answerType: JSONValue?

    public init(identifier: String, value: JSONValue, answerType: JSONValue? = nil) {
        self.identifier = identifier
        self.value = value
        self.answerType = answerType
    }

    public static var schema: JSONSchema {
        .object([
            .init("identifier", .string()), .init("value", .any),
            .init("answerType", .described("SageResearch answer type, e.g. {\"type\": \"integer\"}.", .map(.any))),
        ], required: ["identifier", "value"])
    }
}
