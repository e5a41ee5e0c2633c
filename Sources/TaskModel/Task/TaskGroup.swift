/// A task group (`{identifier, tasks: [...]}`): a list of task infos, each optionally naming
/// its task file through `taskTransformer`. Decoded so that group files validate.
public struct TaskGroup: Codable, Sendable {
    /// One entry of `tasks`: the task's identifier and everything written about it.
    public struct Entry: Codable, Sendable {
        public var identifier: String
        public var taskTransformer: ResourceTransformer?
        public var properties: [String: JSONValue]

        private enum CodingKeys: String, CodingKey { case identifier, taskTransformer }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try container.decode(String.self, forKey: .identifier)
            taskTransformer = try container.decodeIfPresent(ResourceTransformer.self, forKey: .taskTransformer)
            properties = try [String: JSONValue](from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try properties.encode(to: encoder)
        }
    }

    public var identifier: String
    public var tasks: [Entry]
    public var properties: [String: JSONValue]

    private enum CodingKeys: String, CodingKey { case identifier, tasks }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        tasks = try container.decode([Entry].self, forKey: .tasks)
        properties = try [String: JSONValue](from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var members = properties
        members["identifier"] = .string(identifier)
        members["tasks"] = .array(try tasks.map { try JSONValue.encoding($0) })
        try members.encode(to: encoder)
    }
}
