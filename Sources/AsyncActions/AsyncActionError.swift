/// Why an async action could not do what it was asked.
public struct AsyncActionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Int, Sendable, Hashable {
        /// The device the action needs cannot be opened (permission denied or missing).
        case permissionDenied = 1
        /// The action was asked to do something its current status does not allow.
        case invalidState = 2
        /// The device failed while recording (unplugged, I/O error).
        case deviceFailed = 3
        /// Writing the output failed (disk full, I/O error).
        case outputFailed = 4
        /// The action is not supported on this device (for example distance without location).
        case unsupported = 5
        /// A device did not answer within the controller's deadline.
        case timedOut = 6
    }

    public var code: Code
    /// A full sentence that says what happened and what to do.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The error domain recorded in `ErrorResult.errorDomain`.
    public static let domain = "AsyncActionError"
}
