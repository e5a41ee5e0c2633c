/// A custom task type's decoding failed without naming a key: the type threw an error of its
/// own, or Foundation's JSON decoder met a number that does not fit the type asked for (a
/// fraction read as an `Int`), which it would report as invalid JSON without a coding path.
public struct CustomTaskError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The task type whose keys failed.
    public var taskType: String
    /// What the decoder said.
    public var detail: String

    public init(taskType: String, detail: String) {
        self.taskType = taskType
        self.detail = detail
    }

    public var description: String {
        "The keys the task type \"\(taskType)\" adds cannot be decoded (\(detail)); check their values: "
            + "a whole number, for one, can have no fraction and must fit in 64 bits."
    }
}
