import TaskModel
package import ControlChannel
package import ControlProtocol
import Logging
import NIOCore

/// Turns one inbound frame into at most one response line: reads the request, answers what the
/// server answers itself, and hands every other command to the daemon's handler.
///
/// Reading and everything answered without waiting (`classify`) is synchronous, so that the
/// connection's event loop can answer a read-only request itself (`ImmediateAnswerHandler`);
/// a command the handler must carry out is finished on the connection's task (`complete`).
package struct ControlRequestDispatcher: Sendable {
    let handler: any ControlHandler
    let registry: ControlConnectionRegistry
    let logger: Logger
    let maximumLineLength: Int
    /// rpc.discover's answer, generated once.
    let discovery: JSONValue

    /// A connection as requests are answered for it: made once per connection, so that its
    /// logger's metadata (who is connected) is not built again for every request.
    struct Client: Sendable {
        var connection: UInt64
        var peer: PeerCredentials
        /// Names the connection and the peer in every line it logs.
        var logger: Logger
    }

    /// A request read and checked that the daemon's handler must carry out.
    struct PendingCommand: Sendable {
        var command: ControlCommand
        var id: JSONRPCID?
        var isNotification: Bool
        /// The request's method and id, for what is logged about it.
        var metadata: Logger.Metadata
    }

    /// `connection` from `peer`, with its logger.
    func client(_ connection: UInt64, peer: PeerCredentials) -> Client {
        var logger = self.logger
        logger[metadataKey: "connection"] = "\(connection)"
        logger[metadataKey: "peer.pid"] = "\(peer.pid)"
        logger[metadataKey: "peer.uid"] = "\(peer.uid)"
        logger[metadataKey: "peer.gid"] = "\(peer.gid)"
        return Client(connection: connection, peer: peer, logger: logger)
    }

    /// What a frame is once read: answered already, or a command for the daemon's handler.
    enum Classification: Sendable {
        /// Answered already; nil when nothing is due (a blank line, a notification).
        case answered(JSONRPCResponse?)
        /// Waits for the daemon's handler.
        case needsHandler(PendingCommand)
    }

    /// The response to `frame` from connection `connection`, or nil when none is due (for a
    /// caller without a socket: the `fuzz-rpc` target).
    package func respond(to frame: ControlFrame, connection: UInt64, peer: PeerCredentials) async -> JSONRPCResponse? {
        await respond(to: frame, from: client(connection, peer: peer))
    }

    /// The response to `frame` from `client`, or nil when none is due.
    func respond(to frame: ControlFrame, from client: Client) async -> JSONRPCResponse? {
        switch classify(frame, from: client) {
        case .answered(let response): response
        case .needsHandler(let pending): await complete(pending, from: client)
        }
    }

    /// Reads `frame` and classifies it: answered here when that needs no waiting (bad input, the
    /// server's own methods, commands the handler answers from published state), else a command for the handler.
    func classify(_ frame: ControlFrame, from client: Client) -> Classification {
        let logger = client.logger
        let line: NIOCore.ByteBuffer
        switch frame {
        case .oversized(let length):
            logger.notice("Refused an over-long line.", metadata: ["length": "\(length)"])
            return .answered(JSONRPCResponse(id: nil, error: ControlError(
                .invalidRequest,
                "The line is \(length) bytes, longer than the \(maximumLineLength)-byte limit; send large tasks by path or split them.",
                data: ControlErrorData(length: length)).errorObject))
        case .line(let buffer):
            line = buffer
        }
        guard let read = JSONRPCLineReader.read(line.readableBytesView) else { return .answered(nil) }
        let incoming: JSONRPCLineReader.Incoming
        switch read {
        case .failure(let refusal):
            logger.notice("Refused a line that is not a request.", metadata: ["error": "\(refusal.error.message)"])
            return .answered(JSONRPCResponse(id: refusal.id, error: refusal.error.errorObject))
        case .success(let value):
            incoming = value
        }
        let request = incoming.request
        var metadata: Logger.Metadata = ["method": .string(request.method)]
        if let id = request.id { metadata["id"] = "\(id)" }
        logger.info("Request.", metadata: metadata)

        let outcome: Result<JSONValue, ControlError>
        do throws(ControlError) {
            switch try answerWithoutWaiting(request, from: client) {
            case .result(let value):
                outcome = .success(value)
            case .handler(let command):
                return .needsHandler(PendingCommand(
                    command: command, id: request.id, isNotification: incoming.isNotification, metadata: metadata))
            }
        } catch {
            outcome = .failure(error)
        }
        return .answered(response(to: request.id, isNotification: incoming.isNotification, outcome, client: client, metadata: metadata))
    }

    /// Carries out a command through the daemon's handler and answers it.
    func complete(_ pending: PendingCommand, from client: Client) async -> JSONRPCResponse? {
        let outcome: Result<JSONValue, ControlError>
        do throws(ControlError) {
            outcome = .success(try result(of: try await handler.handle(pending.command, from: client.peer), for: pending.command.method))
        } catch {
            outcome = .failure(error)
        }
        return response(to: pending.id, isNotification: pending.isNotification, outcome, client: client, metadata: pending.metadata)
    }

    /// The bytes of `response`'s line; nil (logged) when it cannot be encoded.
    func line(_ response: JSONRPCResponse) -> NIOCore.ByteBuffer? {
        do {
            return NIOCore.ByteBuffer(bytes: try JSONRPCLineWriter.line(response))
        } catch {
            logger.error("A response could not be encoded.", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private enum Answer {
        case result(JSONValue)
        case handler(ControlCommand)
    }

    /// The result of a method answered without the handler's `handle`, or the command for it.
    private func answerWithoutWaiting(_ request: JSONRPCRequest, from client: Client) throws(ControlError) -> Answer {
        guard let method = ControlMethod(rawValue: request.method) else {
            throw ControlError(
                .methodNotFound, "There is no method \(request.method); call rpc.discover for the list.",
                data: ControlErrorData(method: request.method))
        }
        switch method {
        case .rpcDiscover:
            return .result(discovery)
        case .eventsSubscribe:
            let params = request.params == nil ? SubscribeParams() : try ControlCommand.decodeParams(SubscribeParams.self, request.params, method)
            registry.setSubscription(client.connection, subscribed: true, kinds: params.kinds)
            return .result(try encode(Subscription(subscribed: true, kinds: params.kinds)))
        case .eventsUnsubscribe:
            registry.setSubscription(client.connection, subscribed: false, kinds: nil)
            return .result(try encode(Subscription(subscribed: false)))
        default:
            let command = try ControlCommand(method: method, params: request.params)
            guard let reply = handler.answerAtOnce(command, from: client.peer) else { return .handler(command) }
            return .result(try result(of: reply, for: method))
        }
    }

    private func result(of reply: ControlReply, for method: ControlMethod) throws(ControlError) -> JSONValue {
        guard reply.answers(method) else {
            throw ControlError(.internalError, "The daemon answered \(method.rawValue) with the wrong result type; report this as a bug.")
        }
        do {
            return try reply.jsonValue()
        } catch {
            throw ControlError(.internalError, "The daemon's answer to \(method.rawValue) could not be encoded: \(error).")
        }
    }

    private func response(to id: JSONRPCID?, isNotification: Bool, _ outcome: Result<JSONValue, ControlError>,
                          client: Client, metadata: Logger.Metadata) -> JSONRPCResponse? {
        if case .failure(let error) = outcome {
            var metadata = metadata
            metadata["code"] = "\(error.code.rawValue)"
            metadata["error"] = "\(error.message)"
            client.logger.notice("Refused.", metadata: metadata)
        }
        guard !isNotification else { return nil }
        switch outcome {
        case .success(let result): return JSONRPCResponse(id: id, result: result)
        case .failure(let error): return JSONRPCResponse(id: id, error: error.errorObject)
        }
    }

    private func encode(_ value: some Encodable) throws(ControlError) -> JSONValue {
        do {
            return try JSONValueEncoder.encode(value)
        } catch {
            throw ControlError(.internalError, "The answer could not be encoded: \(error).")
        }
    }
}
