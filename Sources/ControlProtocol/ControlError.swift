import TaskModel
/// An error a control command answers with: a code, one sentence that says what to do, and details.
public struct ControlError: Error, Sendable, Hashable {
    public var code: ControlErrorCode
    public var message: String
    public var data: ControlErrorData?

    public init(_ code: ControlErrorCode, _ message: String, data: ControlErrorData? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The wire form.
    public var errorObject: JSONRPCErrorObject {
        JSONRPCErrorObject(code: code.rawValue, message: message, data: data.flatMap { try? JSONValue.encoding($0) })
    }

    /// Reads a wire error; unknown codes become `internalError` with the original message.
    public init(_ object: JSONRPCErrorObject) {
        self.code = ControlErrorCode(rawValue: object.code) ?? .internalError
        self.message = object.message
        self.data = object.data.flatMap { try? $0.decode(ControlErrorData.self) }
    }
}

extension ControlError {
    /// A command the session's state does not accept.
    public static func outOfOrder(_ method: String, state: String, allowed: [String]) -> ControlError {
        ControlError(
            .commandOutOfOrder,
            "\(method) cannot be used while the session is \(state); use one of: \(allowed.joined(separator: ", ")).",
            data: ControlErrorData(state: state, allowed: allowed, method: method))
    }

    /// A command that needs a running run.
    public static func noRunningRun(_ method: String) -> ControlError {
        ControlError(
            .noRunningRun,
            "\(method) needs a running run and none is running; load a task and call run.start, or call run.resume.",
            data: ControlErrorData(method: method))
    }

    /// A command that names a run (`taskRunUUID`) other than the current one, `current` (nil
    /// for none): refused rather than carried out on another run (docs/protocol.md, "The run a
    /// command means"); `data.taskRunUUID` names the current run.
    public static func notTheCurrentRun(_ method: String, meant: String, current: String?) -> ControlError {
        let now = current.map { "the current run is \($0)" } ?? "there is no current run"
        return ControlError(
            .noRunningRun,
            "\(method) is meant for the run \(meant), but \(now); it was not carried out. Call run.status to see the run under way.",
            data: ControlErrorData(taskRunUUID: current, method: method))
    }

    /// A second start while a run records.
    public static func runAlreadyRunning(taskRunUUID: String, taskIdentifier: String) -> ControlError {
        ControlError(
            .runAlreadyRunning,
            "Run \(taskRunUUID) of task \(taskIdentifier) is already running; finish it or call run.cancel before starting another.",
            data: ControlErrorData(taskRunUUID: taskRunUUID))
    }

    /// A task that does not decode.
    public static func taskInvalid(codingPath: String, reason: String) -> ControlError {
        ControlError(
            .taskInvalid,
            "The task is not valid at \(codingPath.isEmpty ? "its top level" : codingPath): \(reason)",
            data: ControlErrorData(codingPath: codingPath))
    }

    /// A run, task file or request that does not exist.
    public static func notFound(_ what: String, taskRunUUID: String? = nil) -> ControlError {
        ControlError(.notFound, "\(what) was not found; call runs.list to see the runs this daemon keeps.",
                     data: taskRunUUID.map { ControlErrorData(taskRunUUID: $0) })
    }
}
