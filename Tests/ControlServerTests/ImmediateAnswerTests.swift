import ControlProtocol
import ControlServer
import Synchronization
import TaskModel
import Testing

/// Requests the server answers on the event loop (`answerAtOnce`) keep the connection's order:
/// a read sent after a command is answered after it and sees what the command did
/// (docs/protocol.md, "Transport"; docs/daemon.md, "Reads without waiting").
@Suite struct ImmediateAnswerTests {
    /// `run.start` takes a while and then starts the run; `run.status` and `daemon.info` are
    /// answered at once from the state it publishes.
    final class SlowStartHandler: ControlHandler {
        private let state = Mutex(ControlSessionState.loaded)
        let handled = Mutex<[String]>([])

        func events() -> AsyncStream<ControlEvent> { AsyncStream { _ in } }

        func registerHandlers(on routes: inout ControlRoutes) {
            routes.answerAtOnce(ControlMethods.runStatus) { _, _ in SessionStatus(state: self.state.withLock { $0 }) }
            routes.answerAtOnce(ControlMethods.daemonInfo) { _, _ in
                DaemonInfo(name: "test", version: "1", pid: 1, uptime: 0, dataDirectory: "/d", iioURI: "sim:",
                           captureDevice: "null", playbackDevice: "null", session: self.state.withLock { $0 })
            }
            routes.handle(ControlMethods.runStart) { _, _ in
                self.handled.withLock { $0.append(ControlMethods.runStart.name) }
                try? await Task.sleep(for: .milliseconds(300))
                self.state.withLock { $0 = .running }
                return SessionStatus(state: .running)
            }
            for method in ControlMethods.all where !routes.registeredMethods.contains(method.name) {
                routes.refuse(method) { _ in
                    self.handled.withLock { $0.append(method.name) }
                    return ControlError(.internalError, "Not in this test.")
                }
            }
        }
    }

    static func request(_ id: Int, _ method: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#.utf8) + [0x0A]
    }

    @Test func readsSentAfterASlowCommandAreAnsweredAfterItAndSeeIt() async throws {
        let handler = SlowStartHandler()
        let answers = try await TestServer.with(handler: handler) { path in
            try await RawConnection.with(path) { connection -> [JSONValue] in
                // Reads first (answered on the event loop), then the slow command, then more
                // reads, a notification and bad input, all in one write.
                var bytes = Self.request(1, "run.status") + Self.request(2, "daemon.info") + Self.request(3, "run.start")
                for id in 4...40 { bytes += Self.request(id, id % 2 == 0 ? "run.status" : "daemon.info") }
                bytes += Array(#"{"jsonrpc":"2.0","method":"run.status"}"#.utf8) + [0x0A] + Array("{bad\n".utf8)
                bytes += Self.request(41, "run.status")
                try await connection.send(bytes)
                var answers: [JSONValue] = []
                for _ in 0..<42 {
                    guard let answer = try await connection.readJSON() else { break }
                    answers.append(answer)
                }
                return answers
            }
        }
        #expect(answers.count == 42)
        let ids = answers.map { $0["id"] }
        #expect(ids == (1...40).map { JSONValue.integer(Int64($0)) } + [.null, .integer(41)])
        #expect(answers[0]["result"]?["state"] == "loaded")
        #expect(answers[1]["result"]?["session"] == "loaded")
        #expect(answers[2]["result"]?["state"] == "running")
        for answer in answers[3..<40] {
            #expect(answer["result"]?["state"] == "running" || answer["result"]?["session"] == "running", "\(answer)")
        }
        #expect(answers[40]["error"]?["code"] == -32700)
        #expect(answers[41]["result"]?["state"] == "running")
        #expect(handler.handled.withLock { $0 } == [ControlMethods.runStart.name])
    }
}
