/// Why a tapping result from the front end is refused: where (`samples[3].location`) and why.
public struct TappingResultProblem: Error, Sendable, Hashable {
    /// The coding path inside the result.
    public var codingPath: String
    public var reason: String

    public init(codingPath: String, reason: String) {
        self.codingPath = codingPath
        self.reason = reason
    }
}
