import ControlProtocol
import ControlServer
import Synchronization

/// A small handler for server tests: answers `daemon.info` and `run.status` from fixed values,
/// refuses `run.forward` as a session with no run would, remembers who asked, and publishes
/// whatever events a test gives it.
final class TestControlHandler: ControlHandler {
    private let peers = Mutex<[PeerCredentials]>([])
    private let stream: AsyncStream<ControlEvent>
    private let continuation: AsyncStream<ControlEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: ControlEvent.self, bufferingPolicy: .unbounded)
    }

    /// Every peer that sent a command, in order.
    var seenPeers: [PeerCredentials] { peers.withLock { $0 } }

    func publish(_ event: ControlEvent) {
        continuation.yield(event)
    }

    func events() -> AsyncStream<ControlEvent> { stream }

    func handle(_ command: ControlCommand, from peer: PeerCredentials) async throws(ControlError) -> ControlReply {
        peers.withLock { $0.append(peer) }
        switch command {
        case .daemonInfo:
            return .daemonInfo(DaemonInfo(name: "test", version: "1", pid: 1, uptime: 0, dataDirectory: "/d", iioURI: "sim:",
                                          captureDevice: "null", playbackDevice: "null", session: .idle))
        case .runStatus:
            return .status(SessionStatus(state: .idle))
        case .runForward:
            throw .noRunningRun("run.forward")
        case .runsList:
            // A wrong reply type: the server must not pass it on as if it were right.
            return .status(SessionStatus(state: .idle))
        default:
            throw ControlError(.internalError, "The test handler does not answer \(command.method.rawValue).")
        }
    }
}
