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
        let output = scratch.url.appendingPathComponent("activator.out").path
        let errors = scratch.url.appendingPathComponent("activator.err").path
        // The activator is spawned here, before the client starts trying: started from a task
        // (`async let`), it could start after the client had given up when the concurrency pool's
        // threads were all busy (the whole suite under a sanitizer), and then wait forever for a
        // connection. timeout(1) still bounds it, with SIGKILL, which no inherited SIG_IGN stops.
        let activator = try ChildSpawn.spawn(
            ["/usr/bin/timeout", "-s", "KILL", "60", tool, "-l", path, ChildProcess.helper, "listen"],
            environment: ProcessInfo.processInfo.environment, standardOutput: output, standardError: errors)
        let reply: String
        do {
            reply = try await onOwnThread { try Self.connectAndRead(path: path) }
        } catch {
            kill(activator, SIGKILL)
            _ = try? await onOwnThread { ChildSpawn.waitForExit(activator) }
            throw error
        }
        let status = try await onOwnThread { ChildSpawn.waitForExit(activator) }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(reply == "descriptors=3\n")
        #expect(printed == "descriptors=3\n", "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(status == 0)
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
        throw NotifySocket.Failure(message: "nothing listened on \(path) within 30 s")
    }

}
