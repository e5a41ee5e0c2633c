public import ControlProtocol

/// What the control server needs from the daemon: a handler for each of its methods, and the
/// events to publish.
///
/// The daemon implements it over its task session (an actor). The server calls the handlers
/// from one task per connection, concurrently for different connections, so they must be safe
/// to call from many tasks at once; each should return once the command is carried out (never
/// wait for the person). `rpc.discover` and `events.subscribe|unsubscribe` are the server's own.
public protocol ControlHandler: Sendable {
    /// Registers one handler for every method in `ControlMethods.all` but the server's own
    /// (docs/protocol.md, "Adding a method"). The server calls it once when it starts and
    /// refuses to start when a method has none or two (`ControlRoutes.check()`).
    func registerHandlers(on routes: inout ControlRoutes)

    /// The events to forward to subscribed connections, in order. The server calls this once
    /// when it starts and stops reading when it shuts down; the stream should never end while
    /// the daemon runs (one stream across every run, not one per session).
    func events() -> AsyncStream<ControlEvent>
}
