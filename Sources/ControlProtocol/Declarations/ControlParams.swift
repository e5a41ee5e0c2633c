public import TaskModel

/// The params of a method: members by name in a JSON object, with the schema the OpenRPC
/// document lists them from.
public protocol ControlParams: ControlSchemaDescribing {
    /// The params of a request that leaves them out; nil when they are required.
    static var whenAbsent: Self? { get }

    /// Decodes a request's params for `method`; throws `invalidParams` naming the coding path.
    static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> Self

    /// Refuses what the schema cannot say (e.g. exactly one of two members), with `invalidParams`.
    func validate(for method: String) throws(ControlError)

    /// The params as a request carries them; nil leaves them out.
    func requestParams() throws -> JSONValue?
}

extension ControlParams {
    public static var whenAbsent: Self? { nil }

    public func validate(for method: String) throws(ControlError) {}

    public func requestParams() throws -> JSONValue? { try JSONValue.encoding(self) }

    public static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> Self {
        if params == nil, let absent = whenAbsent { return absent }
        let decoded = try decodeByName(params, for: method)
        try decoded.validate(for: method)
        return decoded
    }

    /// Decodes by-name params; throws `invalidParams` naming the coding path.
    static func decodeByName(_ params: JSONValue?, for method: String) throws(ControlError) -> Self {
        guard let params, case .object = params else {
            throw ControlError(.invalidParams, "\(method) takes its params by name, as a JSON object.",
                               data: ControlErrorData(codingPath: "", method: method))
        }
        do {
            return try params.decode(Self.self)
        } catch let error as DecodingError {
            let (path, reason) = error.controlDescription
            throw ControlError(.invalidParams, "\(method): \(path.isEmpty ? "params" : path): \(reason)",
                               data: ControlErrorData(codingPath: path, method: method))
        } catch {
            throw ControlError(.invalidParams, "\(method): \(error)", data: ControlErrorData(method: method))
        }
    }
}
