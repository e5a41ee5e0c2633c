public import ControlProtocol

/// What the control server needs from the daemon: carry out commands, and publish events.
///
/// The daemon implements it over its task session (an actor). The server calls `handle` from one
/// task per connection, concurrently for different connections, so an implementation must be
/// safe to call from many tasks at once; each call should return once the command is carried out
/// (never wait for the person). `rpc.discover` and `events.subscribe|unsubscribe` never reach it.
public protocol ControlHandler: Sendable {
    /// Carries out `command` for the client `peer` and answers it; a refused command throws a
    /// `ControlError` whose message says why and what to do.
    func handle(_ command: ControlCommand, from peer: PeerCredentials) async throws(ControlError) -> ControlReply

    /// Answers `command` at once when it only reads state the handler has already published
    /// (`daemon.info`, `run.status`), without waiting for anything; nil sends it to `handle`.
    /// The server calls this first for every command, on the connection's own task, so it must
    /// be cheap and never block. The default answers nothing at once.
    func answerAtOnce(_ command: ControlCommand, from peer: PeerCredentials) -> ControlReply?

    /// The events to forward to subscribed connections, in order. The server calls this once
    /// when it starts and stops reading when it shuts down; the stream should never end while
    /// the daemon runs (one stream across every run, not one per session).
    func events() -> AsyncStream<ControlEvent>
}

extension ControlHandler {
    public func answerAtOnce(_ command: ControlCommand, from peer: PeerCredentials) -> ControlReply? { nil }
}
