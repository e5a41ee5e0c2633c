public import TaskModel

/// The params of a method that takes none: absent or `{}`.
public struct NoParams: Sendable, Hashable, Codable {
    public init() {}
}

extension NoParams: ControlParams {
    /// No members: the document lists no params.
    public static var schema: JSONSchema { .object([], required: []) }

    /// Absent, `{}` or `[]`; anything else is refused.
    public static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> NoParams {
        switch params {
        case nil, .object([:])?, .array([])?: return NoParams()
        default:
            throw ControlError(.invalidParams, "\(method) takes no params; send {} or leave params out.",
                               data: ControlErrorData(codingPath: "", method: method))
        }
    }

    public func requestParams() throws -> JSONValue? { nil }
}
