public import SystemPackage

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
