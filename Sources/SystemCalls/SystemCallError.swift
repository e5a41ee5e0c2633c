public import SystemPackage
import Glibc

/// A system call that failed: which call, on which path (when it has one) and the kernel's
/// reason. Callers turn it into their own error, which says what to do about it.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call's name: `fsync`, `rename`, `lstat`, ….
    public var call: String
    /// The path the call was made on, if any (for `rename`, the source and the destination).
    public var path: String?
    /// The error number the call left in `errno`.
    public var errno: Errno

    public init(_ call: String, path: String?, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// A failure swift-system reported (it throws `Errno`); anything else is reported as EIO.
    init(_ call: String, path: String?, caught error: any Error) {
        self.init(call, path: path, errno: error as? Errno ?? .ioError)
    }

    /// The C library's message for `errno` (strerror), e.g. "No space left on device".
    public var reason: String {
        String(cString: strerror(errno.rawValue))
    }

    public var description: String {
        let target = path.map { " of \($0)" } ?? ""
        return "\(call)\(target) failed: \(reason) (errno \(errno.rawValue))."
    }
}
