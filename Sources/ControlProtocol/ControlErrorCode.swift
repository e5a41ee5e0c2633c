/// The error codes the control socket answers with: JSON-RPC 2.0's own, then the daemon's
/// (-32000 and below, in the range JSON-RPC leaves to servers).
public enum ControlErrorCode: Int, Sendable, CaseIterable, Codable {
    /// The line is not JSON (or not UTF-8).
    case parseError = -32700
    /// The JSON is not a request: no `jsonrpc: "2.0"`, no method, a batch, or a line over the limit.
    case invalidRequest = -32600
    /// No method of that name.
    case methodNotFound = -32601
    /// The params do not match the method (the message names the coding path).
    case invalidParams = -32602
    /// The daemon failed; the message says what it was doing.
    case internalError = -32603

    /// The command does not fit the session's state (forward before start, resume a finished run…).
    case commandOutOfOrder = -32000
    /// The command needs a running run and none is running.
    case noRunningRun = -32001
    /// A run is already running: one run at a time, the sensors are exclusive (data names it).
    case runAlreadyRunning = -32002
    /// The task does not decode or is not valid (data names the coding path).
    case taskInvalid = -32003
    /// No run, task file or permission request of that name.
    case notFound = -32004
    /// The step or task does not allow the action (e.g. `goBackward` hidden).
    case actionNotAllowed = -32005
    /// A device the command needs is missing or busy.
    case deviceUnavailable = -32006
    /// The daemon is shutting down and takes no more commands.
    case shuttingDown = -32007

    /// The name used in docs and the OpenRPC document.
    public var name: String {
        switch self {
        case .parseError: "parseError"
        case .invalidRequest: "invalidRequest"
        case .methodNotFound: "methodNotFound"
        case .invalidParams: "invalidParams"
        case .internalError: "internalError"
        case .commandOutOfOrder: "commandOutOfOrder"
        case .noRunningRun: "noRunningRun"
        case .runAlreadyRunning: "runAlreadyRunning"
        case .taskInvalid: "taskInvalid"
        case .notFound: "notFound"
        case .actionNotAllowed: "actionNotAllowed"
        case .deviceUnavailable: "deviceUnavailable"
        case .shuttingDown: "shuttingDown"
        }
    }

    /// What the code means, for the OpenRPC document.
    public var meaning: String {
        switch self {
        case .parseError: "The line is not JSON or not UTF-8."
        case .invalidRequest: "The JSON is not a single JSON-RPC 2.0 request (batches are not accepted), or the line is longer than 1 MiB."
        case .methodNotFound: "No method of that name; call rpc.discover for the list."
        case .invalidParams: "The params do not match the method; data.codingPath names the member."
        case .internalError: "The daemon failed while carrying out the command."
        case .commandOutOfOrder: "The command does not fit the session's state; data.state and data.allowed say what would."
        case .noRunningRun: "The command needs a running run and none is running; load a task and call run.start, or run.resume."
        case .runAlreadyRunning: "A run is already running (data.taskRunUUID names it); cancel it or wait for it to finish."
        case .taskInvalid: "The task does not decode; data.codingPath names the member and the message says why."
        case .notFound: "No run, task file or permission request of that name."
        case .actionNotAllowed: "The step or task hides this action."
        case .deviceUnavailable: "A device the command needs is missing or busy."
        case .shuttingDown: "The daemon is stopping and takes no more commands."
        }
    }
}
