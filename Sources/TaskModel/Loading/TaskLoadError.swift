/// Why a task file cannot be used, naming the file and the coding path of the fault:
/// `Walk.json: steps[1].resourceTransformer.resourceName: …`.
public struct TaskLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the caller named it.
    public var file: String
    /// Where in the (resolved) task: `steps[1].steps[0].identifier`; `(root)` for the whole file.
    public var codingPath: String
    /// A full sentence saying what is wrong and what to do.
    public var reason: String

    public init(file: String, codingPath: String, reason: String) {
        self.file = file
        self.codingPath = codingPath
        self.reason = reason
    }

    /// `FILE: <coding path>: <reason>`, the line `activetaskctl validate` prints.
    public var description: String { "\(file): \(codingPath): \(reason)" }
}
