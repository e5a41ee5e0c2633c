/// An async action controller that failed during the run: an error result (`<identifier>_error`)
/// in the task result.
public struct ControllerFailure: Sendable, Hashable {
    public var identifier: String
    public var errorDescription: String
    public var errorDomain: String?
    public var errorCode: Int?

    public init(identifier: String, errorDescription: String, errorDomain: String? = nil, errorCode: Int? = nil) {
        self.identifier = identifier
        self.errorDescription = errorDescription
        self.errorDomain = errorDomain
        self.errorCode = errorCode
    }
}
