import TaskModel
package import ControlChannel
package import ControlProtocol
import Logging
import NIOCore

/// Turns one inbound frame into at most one response line: reads the request, finds the handler
/// its method has in the route table (`ControlRoutes`), decodes its params and answers it.
///
/// Reading and everything answered without waiting (`classify`) is synchronous, so that the
/// connection's event loop can answer a read-only request itself (`ImmediateAnswerHandler`);
/// a request whose handler may wait is finished on the connection's task (`complete`).
package struct ControlRequestDispatcher: Sendable {
    let routes: ControlRoutes
    let logger: Logger
    let maximumLineLength: Int

    /// A connection as requests are answered for it: made once per connection, so that its
    /// logger's metadata (who is connected) is not built again for every request.
    struct Client: Sendable {
        var context: ControlRequestContext
        /// Names the connection and the peer in every line it logs.
        var logger: Logger
    }

    /// A request read and decoded whose handler must be waited for.
    struct PendingCommand: Sendable {
        var work: ControlRoutes.Work
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
        return Client(context: ControlRequestContext(connection: connection, peer: peer), logger: logger)
    }

    /// What a frame is once read: answered already, or work for a handler that may wait.
    enum Classification: Sendable {
        /// Answered already; nil when nothing is due (a blank line, a notification).
        case answered(JSONRPCResponse?)
        /// Waits for its handler.
        case needsHandler(PendingCommand)
    }

    /// The response to `frame` from connection `connection`, or nil when none is due (for a
    /// caller without a socket: the `fuzz-rpc` target).
    package func respond(to frame: ControlFrame, connection: UInt64, peer: PeerCredentials) async -> JSONRPCResponse? {
        await respond(to: frame, from: client(connection, peer: peer))
    }

    /// Carries out `method` with `params` through its handler, as a request from `connection`
    /// would be (for a caller without a socket: the `fuzz-rpc` target).
    package func call<Params, Result>(_ method: ControlMethod<Params, Result>, _ params: Params,
                                      connection: UInt64, peer: PeerCredentials) async throws -> Result {
        guard let route = routes.route(method.name) else {
            throw ControlError(.methodNotFound, "There is no handler for \(method.name).")
        }
        let context = ControlRequestContext(connection: connection, peer: peer)
        let json = try method.requestParams(params)
        let result: JSONValue = switch route.answer {
        case .atOnce(let answer): try answer(json, context)
        case .later(let prepare): try await prepare(json)(context)
        }
        return try method.decodeResult(result)
    }

    /// The response to `frame` from `client`, or nil when none is due.
    func respond(to frame: ControlFrame, from client: Client) async -> JSONRPCResponse? {
        switch classify(frame, from: client) {
        case .answered(let response): response
        case .needsHandler(let pending): await complete(pending, from: client)
        }
    }

    /// Reads `frame` and classifies it: answered here when that needs no waiting (bad input,
    /// params that do not decode, methods answered at once), else work for a handler that may wait.
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
            guard let route = routes.route(request.method) else {
                throw ControlError(
                    .methodNotFound, "There is no method \(request.method); call rpc.discover for the list.",
                    data: ControlErrorData(method: request.method))
            }
            switch route.answer {
            case .atOnce(let answer):
                outcome = .success(try answer(request.params, client.context))
            case .later(let prepare):
                return .needsHandler(PendingCommand(
                    work: try prepare(request.params), id: request.id, isNotification: incoming.isNotification, metadata: metadata))
            }
        } catch {
            outcome = .failure(error)
        }
        return .answered(response(to: request.id, isNotification: incoming.isNotification, outcome, client: client, metadata: metadata))
    }

    /// Carries out a request through its handler and answers it.
    func complete(_ pending: PendingCommand, from client: Client) async -> JSONRPCResponse? {
        let outcome: Result<JSONValue, ControlError>
        do throws(ControlError) {
            outcome = .success(try await pending.work(client.context))
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
}
