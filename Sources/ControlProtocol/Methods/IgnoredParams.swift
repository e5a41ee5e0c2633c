public import TaskModel

/// The params of a method that never reads them (`rpc.discover`, `events.unsubscribe`):
/// anything is accepted, and the document lists none.
public struct IgnoredParams: Sendable, Hashable, ControlParams {
    public init() {}

    public init(from decoder: any Decoder) throws {}

    public func encode(to encoder: any Encoder) throws {}

    public static var schema: JSONSchema { .object([], required: []) }

    public static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> IgnoredParams {
        IgnoredParams()
    }

    public func requestParams() throws -> JSONValue? { nil }
}
