public import Glibc

/// A datagram socket the test owns, standing in for systemd's NOTIFY_SOCKET: it records every
/// state message a child sends, with the time it arrived.
public final class NotifySocket: @unchecked Sendable {
    /// The socket's path, to pass as NOTIFY_SOCKET.
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(message: "socket: \(String(cString: strerror(errno)))") }
        let bound = withUnixSocketAddress(path) { bind(descriptor, $0, $1) }
        guard bound == 0 else { throw Failure(message: "bind \(path): \(String(cString: strerror(errno)))") }
        // A short receive time-out, so that `messages(until:)` can poll for the child's exit.
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// One message: its arrival time (monotonic seconds) and its `KEY=VALUE` lines.
    public struct Message: Sendable {
        public var time: Double
        public var assignments: [String]
    }

    /// Receives messages until `finished()` is true and nothing more is queued.
    public func messages(until finished: () -> Bool) -> [Message] {
        var messages: [Message] = []
        while true {
            if let message = receive() {
                messages.append(message)
            } else if finished() {
                return messages
            }
        }
    }

    /// The next message, or nil when none arrived within the receive time-out (50 ms).
    public func receive() -> Message? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return Message(time: Self.now(), assignments: text.split(separator: "\n").map(String.init))
    }

    public static func now() -> Double { MonotonicTime.now() }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }
}

/// Calls `body` with the AF_UNIX address of `path` (truncated to fit sun_path) and its length.
public func withUnixSocketAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
