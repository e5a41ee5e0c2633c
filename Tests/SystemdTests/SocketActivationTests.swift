import Foundation
import Glibc
import Testing
import TestSupport

/// `systemd-socket-activate` hands a listening socket to the helper, as activetaskd.socket does.
@Suite("Socket activation")
struct SocketActivationTests {
    @Test("The helper receives fd 3 as a listening Unix socket and serves the first connection on it")
    func passedSocket() async throws {
        let tool = try #require(ChildProcess.tool("systemd-socket-activate"), "systemd-socket-activate is part of the systemd package (scripts/setup.sh)")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("control.sock").path
        // Bounded: should the connection below never be made, the activator would wait forever.
        async let run = ChildProcess.run("/usr/bin/timeout", ["60", tool, "-l", path, ChildProcess.helper, "listen"])
        let reply = try await onOwnThread { try Self.connectAndRead(path: path) }
        let output = try await run
        #expect(reply == "descriptors=3\n")
        #expect(output.standardOutput == "descriptors=3\n", "\(output.standardError)")
        #expect(output.status == 0)
    }

    @Test("Without LISTEN_FDS there are no inherited sockets (the daemon binds its own)")
    func notActivated() async throws {
        let output = try await ChildProcess.run(ChildProcess.helper, ["listen"], environment: ["LISTEN_FDS": nil, "LISTEN_PID": nil])
        #expect(output.standardOutput == "descriptors=\n")
    }

    /// Connects once the activator listens (it creates the socket file) and reads the reply.
    static func connectAndRead(path: String) throws -> String {
        for _ in 0..<1200 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            let connected = withUnixSocketAddress(path) { connect(descriptor, $0, $1) }
            if connected != 0 {
                usleep(25_000)
                continue
            }
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                reply += buffer[..<count]
            }
            return String(decoding: reply, as: UTF8.self)
        }
        throw NotifySocket.Failure(message: "nothing listened on \(path) within 5 s")
    }
}
