public import SystemPackage
import SystemCalls

/// A failure to write or repair a sample file, with the system's reason.
public struct SampleFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errno: Errno?
    public var detail: String?

    public init(path: String, operation: String, errno: Errno? = nil, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// A failed system call caught through a closure that does not keep the error's type
    /// (`Array.withUnsafeBytes` rethrows `any Error`).
    init(path: String, operation: String, caught error: any Error) {
        self.init(path: path, operation: operation, errno: (error as? SystemCallError)?.errno)
    }

    public var description: String {
        var text = "Could not \(operation) the sample file \(path)"
        if let errno { text += ": \(errno.description)" }
        if let detail { text += ": \(detail)" }
        if errno == .noSpace {
            text += ". Free space on the data disk; what was written so far is kept."
        } else {
            text += "."
        }
        return text
    }
}
