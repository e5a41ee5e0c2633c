import ControlProtocol
import ControlServer
import Synchronization

/// A small handler for server tests: answers `daemon.info` and `run.status` from fixed values,
/// refuses `run.forward` as a session with no run would, fails `runs.list` with an error that is
/// not a `ControlError`, refuses every other method, remembers who asked, and publishes whatever
/// events a test gives it.
final class TestControlHandler: ControlHandler {
    private let peers = Mutex<[PeerCredentials]>([])
    private let stream: AsyncStream<ControlEvent>
    private let continuation: AsyncStream<ControlEvent>.Continuation

    /// What a handler throws that is not a `ControlError`: the server must answer -32603.
    struct Failure: Error {}

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: ControlEvent.self, bufferingPolicy: .unbounded)
    }

    /// Every peer that sent a command, in order.
    var seenPeers: [PeerCredentials] { peers.withLock { $0 } }

    func publish(_ event: ControlEvent) {
        continuation.yield(event)
    }

    func events() -> AsyncStream<ControlEvent> { stream }

    private func seen(_ context: ControlRequestContext) {
        peers.withLock { $0.append(context.peer) }
    }

    func registerHandlers(on routes: inout ControlRoutes) {
        routes.handle(ControlMethods.daemonInfo) { _, context in
            self.seen(context)
            return DaemonInfo(name: "test", version: "1", pid: 1, uptime: 0, dataDirectory: "/d", iioURI: "sim:",
                              captureDevice: "null", playbackDevice: "null", session: .idle)
        }
        routes.handle(ControlMethods.runStatus) { _, context in
            self.seen(context)
            return SessionStatus(state: .idle)
        }
        routes.handle(ControlMethods.runForward) { _, context in
            self.seen(context)
            throw ControlError.noRunningRun("run.forward")
        }
        routes.handle(ControlMethods.runsList) { _, context in
            self.seen(context)
            throw Failure()
        }
        for method in ControlMethods.all where !routes.registeredMethods.contains(method.name) {
            routes.refuse(method) { context in
                self.seen(context)
                return ControlError(.internalError, "The test handler does not answer \(method.name).")
            }
        }
    }
}
