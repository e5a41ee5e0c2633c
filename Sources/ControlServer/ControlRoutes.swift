public import ControlProtocol
import TaskModel

/// The handlers of the control socket's methods, one per declaration in `ControlMethods`, as a
/// router holds its routes: the server registers its own methods (`rpc.discover`,
/// `events.subscribe|unsubscribe`), the daemon's `ControlHandler` registers the others, and the
/// server checks the table before it listens (`check()`): a declared method without a
/// handler, a method registered twice, or a handler for a method not in `ControlMethods.all`
/// stops the start with a sentence naming it (docs/protocol.md, "Adding a method").
///
/// A handler gets its params decoded and returns its result typed by the declaration; the table
/// keeps them as JSON in, JSON out, so that the dispatcher needs no case per method.
public struct ControlRoutes: Sendable {
    /// A request whose params are decoded, ready to be carried out.
    typealias Work = @Sendable (ControlRequestContext) async throws(ControlError) -> JSONValue

    /// How a method is answered once its params are decoded.
    enum Answer: Sendable {
        /// At once, from state published already, without waiting for anything: on the
        /// connection's event loop when it is free (`ImmediateAnswerHandler`).
        case atOnce(@Sendable (JSONValue?, ControlRequestContext) throws(ControlError) -> JSONValue)
        /// By work that may wait (the daemon's actor, files, devices): decoded at once, carried
        /// out on the connection's task.
        case later(@Sendable (JSONValue?) throws(ControlError) -> Work)
    }

    struct Route: Sendable {
        var method: any ControlMethodDescribing
        var answer: Answer
    }

    private(set) var routes: [String: Route] = [:]
    /// Names registered more than once, in order, for `check()`.
    private var duplicates: [String] = []

    public init() {}

    /// Registers `handler` as the one that carries out `method`. It may wait (it runs on the
    /// connection's task); a `ControlError` it throws is the answer, any other error is answered
    /// as an internal error.
    public mutating func handle<Params, Result>(
        _ method: ControlMethod<Params, Result>,
        with handler: @escaping @Sendable (Params, ControlRequestContext) async throws -> Result
    ) {
        add(method, .later { json throws(ControlError) -> Work in
            let params = try method.decodeParams(json)
            return { context async throws(ControlError) -> JSONValue in
                let result: Result
                do {
                    result = try await handler(params, context)
                } catch let error as ControlError {
                    throw error
                } catch {
                    throw ControlError(.internalError, "\(error)")
                }
                return try method.encodeResult(result)
            }
        })
    }

    /// Registers `handler` as the one that answers `method` at once: it must only read state
    /// published already, never wait and never block, since it may run on the connection's
    /// event loop (docs/daemon.md, "Reads without waiting").
    public mutating func answerAtOnce<Params, Result>(
        _ method: ControlMethod<Params, Result>,
        with handler: @escaping @Sendable (Params, ControlRequestContext) throws(ControlError) -> Result
    ) {
        add(method, .atOnce { json, context throws(ControlError) -> JSONValue in
            try method.encodeResult(try handler(try method.decodeParams(json), context))
        })
    }

    /// Registers a handler that refuses `method` with `error` whatever the request: for a
    /// stand-in server that does not carry the method out (the protocol tests' servers). The
    /// params are still decoded, so that bad params are answered as the daemon answers them.
    public mutating func refuse(
        _ method: any ControlMethodDescribing,
        with error: @escaping @Sendable (ControlRequestContext) -> ControlError
    ) {
        add(method, .later { json throws(ControlError) -> Work in
            _ = try method.paramsType.decode(json, for: method.name)
            return { context async throws(ControlError) -> JSONValue in throw error(context) }
        })
    }

    private mutating func add(_ method: any ControlMethodDescribing, _ answer: Answer) {
        if routes[method.name] != nil { duplicates.append(method.name) }
        routes[method.name] = Route(method: method, answer: answer)
    }

    /// The methods with a handler, by name.
    public var registeredMethods: Set<String> { Set(routes.keys) }

    /// Refuses a table that does not have exactly one handler for every declared method.
    public func check() throws(ControlRoutesError) {
        let declared = ControlMethods.all.map(\.name)
        let missing = declared.filter { routes[$0] == nil }
        let undeclared = routes.keys.filter { ControlMethods.named($0) == nil }.sorted()
        guard missing.isEmpty, undeclared.isEmpty, duplicates.isEmpty else {
            throw ControlRoutesError(missing: missing, duplicates: duplicates, undeclared: undeclared)
        }
    }

    /// The route of the method named `name`.
    func route(_ name: String) -> Route? { routes[name] }
}
