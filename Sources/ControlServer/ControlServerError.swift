#if canImport(Glibc)
import Glibc
#endif

/// Why the control server could not listen.
public struct ControlServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    static func socketInUse(_ path: String) -> ControlServerError {
        ControlServerError("Another process is listening on \(path); stop it (or pass another --socket) before starting activetaskd.")
    }

    static func notASocket(_ path: String) -> ControlServerError {
        ControlServerError("\(path) exists and is not a socket; remove it or pass another --socket.")
    }

    static func system(_ call: String, _ path: String, errno code: Int32) -> ControlServerError {
        ControlServerError("\(call) \(path) failed: \(String(cString: strerror(code))) (errno \(code)).")
    }
}
