public import TaskModel
/// A JSON Schema (draft 7 subset) describing one wire type, written beside the Codable type it
/// describes and turned into JSON for the OpenRPC document.
public indirect enum JSONSchema: Sendable, Hashable {
    case string(enumeration: [String]? = nil, format: String? = nil)
    case integer(minimum: Int64? = nil)
    case number
    case boolean
    /// Any JSON value (a step's JSON, an answer value).
    case any
    case array(JSONSchema)
    /// An object with these members; `required` lists the ones always present. Members not
    /// listed are refused, so a type that grows a member without its schema fails validation.
    case object([Property], required: [String])
    /// An object whose member names are free and whose values match the schema.
    case map(JSONSchema)
    /// A reference to `#/components/schemas/<name>`.
    case reference(String)
    case nullable(JSONSchema)
    case described(String, JSONSchema)

    /// One member of an object schema.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var schema: JSONSchema

        public init(_ name: String, _ schema: JSONSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// A reference to the schema of a described type.
    public static func reference<T: ControlSchemaDescribing>(to type: T.Type) -> JSONSchema {
        .reference(T.schemaName)
    }

    /// A string limited to the raw values of an enumeration.
    public static func enumeration<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> JSONSchema
    where T.RawValue == String {
        .string(enumeration: T.allCases.map(\.rawValue))
    }

    /// The schema as JSON.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let enumeration, let format):
            var members: [String: JSONValue] = ["type": "string"]
            if let enumeration { members["enum"] = .array(enumeration.map(JSONValue.string)) }
            if let format { members["format"] = .string(format) }
            return .object(members)
        case .integer(let minimum):
            var members: [String: JSONValue] = ["type": "integer"]
            if let minimum { members["minimum"] = .integer(minimum) }
            return .object(members)
        case .number:
            return ["type": "number"]
        case .boolean:
            return ["type": "boolean"]
        case .any:
            return .object([:])
        case .array(let items):
            return ["type": "array", "items": items.jsonValue]
        case .object(let properties, let required):
            var members: [String: JSONValue] = [
                "type": "object",
                "properties": .object(Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.schema.jsonValue) })),
                "additionalProperties": false,
            ]
            if !required.isEmpty { members["required"] = .array(required.map(JSONValue.string)) }
            return .object(members)
        case .map(let values):
            return ["type": "object", "additionalProperties": values.jsonValue]
        case .reference(let name):
            return ["$ref": .string("#/components/schemas/\(name)")]
        case .nullable(let schema):
            return ["oneOf": [schema.jsonValue, ["type": "null"]]]
        case .described(let description, let schema):
            guard case .object(var members) = schema.jsonValue else { return schema.jsonValue }
            if members["$ref"] != nil {
                // Draft 7 ignores siblings of $ref; wrap it so the description is kept.
                return ["description": .string(description), "allOf": .object(members).asArray]
            }
            members["description"] = .string(description)
            return .object(members)
        }
    }
}

extension JSONValue {
    fileprivate var asArray: JSONValue { .array([self]) }
}

/// A wire type with a schema in the OpenRPC document's `components/schemas`.
public protocol ControlSchemaDescribing: Codable, Sendable {
    /// The key under `components/schemas`.
    static var schemaName: String { get }
    /// The schema of the type's JSON form.
    static var schema: JSONSchema { get }
}

extension ControlSchemaDescribing {
    public static var schemaName: String { String(describing: Self.self) }
}
