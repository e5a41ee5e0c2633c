import Foundation
import Glibc
import Synchronization

/// A TCP listener on iiod's port that never accepts: the kernel completes the handshake, so
/// libiio's `ip:` backend connects and then waits for an answer that never comes. Listens on
/// a loopback address of its own (127.77.0.N, one per server) so it never meets a real iiod
/// on 127.0.0.1 nor another test's server.
final class NeverAnsweringServer: Sendable {
    private static let counter = Mutex(0)
    let address: String
    private let socket: Int32

    init() throws {
        // Another test run on the same machine (a second worktree, a sanitizer run) may hold an
        // address: take the next free one instead of failing.
        var lastError = EADDRINUSE
        for _ in 0..<64 {
            let number = Self.counter.withLock { count in
                count += 1
                return count
            }
            let host = "127.77.\(number / 250 % 250).\(number % 250 + 1)"
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(30431).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0, listen(fd, 64) == 0 {
                self.address = host
                socket = fd
                return
            }
            lastError = errno
            Glibc.close(fd)
            guard lastError == EADDRINUSE else { break }
        }
        throw POSIXError(.init(rawValue: lastError) ?? .EIO)
    }

    /// The libiio URI of this server.
    var uri: String { "ip:\(address)" }

    /// Closes the listener: pending connections are reset and the hung libiio call returns.
    func close() {
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}
