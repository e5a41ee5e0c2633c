/// Why a run directory could not be judged.
public struct QualityError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file or directory concerned.
    public var path: String
    /// A sentence saying what is wrong and what to do.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
