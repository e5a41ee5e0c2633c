import Foundation
import Glibc

/// A Unix socket bound and listening at a path, as systemd hands one over (socket activation).
struct UnixSocketListener {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = unixAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// A client socket that writes and never reads (the slow front end).
struct UnixSocketClient {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = unixAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    func write(_ bytes: [UInt8]) throws {
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    /// Drains what the server sent and reports whether it then closed the connection.
    func isClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Whether the peer closes the connection within `timeout` (checked every 10 ms): a server
    /// that drops a client does so from its own event loop, a little later on a loaded machine.
    func isClosedByPeer(within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isClosedByPeer() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    func close() { _ = Glibc.close(descriptor) }
}

private func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: path.utf8)
        raw[path.utf8.count] = 0
    }
    return address
}
