import ControlClient
import ControlProtocol
import ControlServer
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@Suite struct ControlServerTests {
    /// Each bad input of docs/protocol.md "Errors", with the code a JSON-RPC client expects.
    static let badInputs: [(name: String, bytes: [UInt8], code: Int)] = [
        ("a line over 1 MiB", [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 1) + [0x0A], -32600),
        ("a 3 MiB JSON line", Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.info","params":{"pad":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20) + Array("\"}}\n".utf8), -32600),
        ("invalid UTF-8", Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.info","x":""#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8), -32700),
        ("malformed JSON", Array("{\"jsonrpc\": \"2.0\", \"id\": 1,\n".utf8), -32700),
        ("a batch", Array(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.info"}]"#.utf8) + [0x0A], -32600),
        ("not a request", Array(#"{"jsonrpc":"2.0","id":2}"#.utf8) + [0x0A], -32600),
        ("an unknown method", Array(#"{"jsonrpc":"2.0","id":3,"method":"run.fly"}"#.utf8) + [0x0A], -32601),
        ("wrong params", Array(#"{"jsonrpc":"2.0","id":4,"method":"run.cancel","params":{"save":1}}"#.utf8) + [0x0A], -32602),
        ("a command out of order", Array(#"{"jsonrpc":"2.0","id":5,"method":"run.forward"}"#.utf8) + [0x0A], -32001),
        ("a handler failing without a ControlError", Array(#"{"jsonrpc":"2.0","id":6,"method":"runs.list"}"#.utf8) + [0x0A], -32603),
    ]

    @Test func everyBadInputGetsItsErrorAndEveryoneGoesOn() async throws {
        let handler = TestControlHandler()
        try await TestServer.with(handler: handler) { path in
            try await ControlClient.withConnection(socketPath: path) { bystander in
                try await RawConnection.with(path) { connection in
                    for input in Self.badInputs {
                        let response = try #require(try await connection.exchange(input.bytes), "no answer to \(input.name)")
                        #expect(response["error"]?["code"] == .integer(Int64(input.code)), "\(input.name): \(response)")
                        #expect(response["error"]?["message"]?.stringValue?.isEmpty == false)
                        // The same connection and another client go on.
                        let info = try #require(try await connection.exchange(Array(#"{"jsonrpc":"2.0","id":"after","method":"daemon.info"}"#.utf8) + [0x0A]))
                        #expect(info["result"]?["name"] == "test", "after \(input.name)")
                        #expect(try await bystander.status().state == .idle)
                    }
                }
            }
        }
    }

    @Test func clientNotificationsGetNoResponse() async throws {
        try await TestServer.with(handler: TestControlHandler()) { path in
            try await RawConnection.with(path) { connection in
                try await connection.send(Array(#"{"jsonrpc":"2.0","method":"run.status"}"#.utf8) + [0x0A])
                try await connection.send(Array(#"{"jsonrpc":"2.0","method":"no.such"}"#.utf8) + [0x0A])
                let next = try #require(try await connection.exchange(Array(#"{"jsonrpc":"2.0","id":9,"method":"run.status"}"#.utf8) + [0x0A]))
                #expect(next["id"] == 9)
            }
        }
    }

    @Test func twoHundredClientsConnectAtOnce() async throws {
        let handler = TestControlHandler()
        let answered = try await TestServer.with(handler: handler) { path in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        try await ControlClient.withConnection(socketPath: path) { client in
                            try await client.call(ControlMethods.daemonInfo).name == "test"
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(answered == 200)
    }

    /// The fan-out: every event is written to each subscriber without waiting for any, so a
    /// client that stops reading is dropped while every reading one, one or many, gets every
    /// event in order (docs/benchmarks.md, "Event fan-out", times it).
    // A reader that lost an event would leave the publisher waiting: fail rather than hang.
    @Test(.timeLimit(.minutes(5)), arguments: [1, 16])
    func aClientThatDoesNotReadIsDisconnectedAndOthersGetEveryEvent(readers: Int) async throws {
        let handler = TestControlHandler()
        let logs = RecordingLogHandler.Store()
        // 2 KB events: a few hundred fill a silent client's socket buffer and its limit of 64;
        // with many readers fewer events keep the test short.
        let eventCount = readers == 1 ? 4000 : 600
        let batch = 32
        let padding = String(repeating: "w", count: 2000)
        try await TestServer.with(handler: handler, outboundQueueLimit: 64, logs: logs) { path in
            // Connection 1 subscribes and then never reads.
            let silent = try UnixSocketClient(path: path)
            defer { silent.close() }
            try silent.write(Array(#"{"jsonrpc":"2.0","id":1,"method":"events.subscribe"}"#.utf8) + [0x0A])
            while logs.records.withLock({ $0.filter { $0.message == "Request." }.count }) < 1 {
                try await Task.sleep(for: .milliseconds(5))
            }

            let received = (0..<readers).map { _ in SequenceLog() }
            let subscribed = SequenceLog()  // one entry per reader subscribed
            try await withThrowingTaskGroup(of: Void.self) { group in
                for log in received {
                    group.addTask {
                        try await ControlClient.withConnection(socketPath: path) { reader in
                            try await reader.subscribe()
                            _ = subscribed.append(0)
                            for await event in reader.events {
                                if log.append(event.sequence) == eventCount { break }
                            }
                        }
                    }
                }
                while subscribed.count < readers {
                    try await Task.sleep(for: .milliseconds(1))
                }
                // Events in bursts a reading client keeps up with and a silent one cannot.
                for first in stride(from: 1, through: eventCount, by: batch) {
                    let last = min(first + batch - 1, eventCount)
                    for sequence in first...last {
                        handler.publish(ControlEvent(sequence: UInt64(sequence), uptime: 0,
                                                     payload: .warning(WarningEvent(message: padding))))
                    }
                    while received.contains(where: { $0.count < last }) {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
                try await group.waitForAll()
            }
            for log in received {
                let sequences = log.values
                #expect(sequences.count == eventCount)
                #expect(sequences == (1...eventCount).map(UInt64.init), "events arrived out of order or twice")
            }
            // Closed once its queue overflowed, during the bursts; the wait only bounds the test
            // (1 s was missed once with 16 readers while other suites loaded both cores).
            #expect(try await silent.isClosedByPeer(within: TestTiming.tolerance(.seconds(10))), "the server kept a client that never reads")
        }
        let warnings = logs.records.withLock { $0.filter { $0.message.contains("does not read") } }
        #expect(warnings.map { $0.metadata["connection"] } == ["1"])
    }

    @Test func peerCredentialsAreReadAndLoggedWithEveryRequest() async throws {
        let handler = TestControlHandler()
        let logs = RecordingLogHandler.Store()
        try await TestServer.with(handler: handler, logs: logs) { path in
            try await ControlClient.withConnection(socketPath: path) { client in
                _ = try await client.status()
                _ = try? await client.call(ControlMethods.runForward, ForwardParams())
            }
        }
        let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
        #expect(handler.seenPeers == [me, me])
        let requests = logs.records.withLock { $0.filter { $0.message == "Request." } }
        #expect(requests.count == 2)
        for record in requests {
            #expect(record.metadata["peer.pid"] == "\(me.pid)")
            #expect(record.metadata["peer.uid"] == "\(me.uid)")
            #expect(record.metadata["method"] != nil)
        }
    }

    @Test func aStaleSocketFileIsReplacedAndALiveOneIsNeverTaken() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("stale.sock").path
        // A socket file nobody listens on any more.
        let stale = try UnixSocketListener(path: path)
        stale.close()
        #expect(FileManager.default.fileExists(atPath: path))
        try await TestServer.with(handler: TestControlHandler(), listener: .path(path)) { _ in
            let before = try await sessionState(at: path)
            #expect(before == .idle)
            // A second server on the same path must refuse to start.
            let second = ControlServer(configuration: .init(listener: .path(path)), handler: TestControlHandler(),
                                       logger: .init(label: "second") { _ in RecordingLogHandler(store: .init()) })
            await #expect(throws: ControlServerError.self) { try await second.run() }
            // And the first still answers.
            let after = try await sessionState(at: path)
            #expect(after == .idle)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file was left behind")
    }

    @Test func aSocketThatIsNotASocketFileIsRefused() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("control.sock", "not a socket")
        let server = ControlServer(configuration: .init(listener: .path(path)), handler: TestControlHandler(),
                                   logger: .init(label: "x") { _ in RecordingLogHandler(store: .init()) })
        await #expect(throws: ControlServerError.self) { try await server.run() }
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func anInheritedListeningSocketIsServed() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("activated.sock").path
        let listener = try UnixSocketListener(path: path)
        try await TestServer.with(handler: TestControlHandler(), listener: .inheritedDescriptor(listener.descriptor)) { _ in
            let state = try await sessionState(at: path)
            #expect(state == .idle)
        }
    }

    private func sessionState(at path: String) async throws -> ControlSessionState {
        try await ControlClient.withConnection(socketPath: path) { try await $0.status().state }
    }

    @Test func rpcDiscoverReturnsTheDocument() async throws {
        let document = try await TestServer.with(handler: TestControlHandler()) { path in
            try await ControlClient.withConnection(socketPath: path) { try await $0.call("rpc.discover") }
        }
        #expect(document == OpenRPCDocument.document)
    }
}

/// Sequence numbers received by one task and read by another.
private final class SequenceLog: Sendable {
    private let storage = Mutex<[UInt64]>([])

    func append(_ sequence: UInt64) -> Int {
        storage.withLock { $0.append(sequence); return $0.count }
    }

    var count: Int { storage.withLock { $0.count } }
    var values: [UInt64] { storage.withLock { $0 } }
}
