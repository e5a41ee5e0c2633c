public import TaskModel

/// Something an async action controller reports while it runs.
public enum AsyncActionEvent: Sendable {
    /// The status moved forward.
    case statusChanged(identifier: String, status: AsyncActionStatus)
    /// The controller failed; `result` is the `<identifier>_error` result to record.
    case failed(identifier: String, result: ErrorResult)
    /// A fact worth telling the front end that does not stop the recording (an overrun, a gap).
    case warning(identifier: String, message: String)
}
