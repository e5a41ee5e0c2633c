import TaskModel
package import ControlChannel
package import ControlProtocol
import Logging
import NIOCore

/// Turns one inbound frame into at most one response line: reads the request, answers what the
/// server answers itself, and hands every other command to the daemon's handler.
package struct ControlRequestDispatcher: Sendable {
    let handler: any ControlHandler
    let registry: ControlConnectionRegistry
    let logger: Logger
    let maximumLineLength: Int
    /// rpc.discover's answer, generated once.
    let discovery: JSONValue

    /// The response to `frame` from connection `connection`, or nil when none is due.
    package func respond(to frame: ControlFrame, connection: UInt64, peer: PeerCredentials) async -> JSONRPCResponse? {
        var logger = self.logger
        logger[metadataKey: "connection"] = "\(connection)"
        logger[metadataKey: "peer.pid"] = "\(peer.pid)"
        logger[metadataKey: "peer.uid"] = "\(peer.uid)"
        logger[metadataKey: "peer.gid"] = "\(peer.gid)"

        let line: NIOCore.ByteBuffer
        switch frame {
        case .oversized(let length):
            logger.notice("Refused an over-long line.", metadata: ["length": "\(length)"])
            return JSONRPCResponse(id: nil, error: ControlError(
                .invalidRequest,
                "The line is \(length) bytes, longer than the \(maximumLineLength)-byte limit; send large tasks by path or split them.",
                data: ControlErrorData(length: length)).errorObject)
        case .line(let buffer):
            line = buffer
        }
        guard let read = JSONRPCLineReader.read(line.readableBytesView) else { return nil }
        let incoming: JSONRPCLineReader.Incoming
        switch read {
        case .failure(let refusal):
            logger.notice("Refused a line that is not a request.", metadata: ["error": "\(refusal.error.message)"])
            return JSONRPCResponse(id: refusal.id, error: refusal.error.errorObject)
        case .success(let value):
            incoming = value
        }
        let request = incoming.request
        logger[metadataKey: "method"] = "\(request.method)"
        if let id = request.id { logger[metadataKey: "id"] = "\(id)" }
        logger.info("Request.")

        let outcome = await answer(request, connection: connection, peer: peer)
        if case .failure(let error) = outcome {
            logger.notice("Refused.", metadata: ["code": "\(error.code.rawValue)", "error": "\(error.message)"])
        }
        guard !incoming.isNotification else { return nil }
        switch outcome {
        case .success(let result): return JSONRPCResponse(id: request.id, result: result)
        case .failure(let error): return JSONRPCResponse(id: request.id, error: error.errorObject)
        }
    }

    private func answer(_ request: JSONRPCRequest, connection: UInt64, peer: PeerCredentials) async -> Result<JSONValue, ControlError> {
        guard let method = ControlMethod(rawValue: request.method) else {
            return .failure(ControlError(
                .methodNotFound, "There is no method \(request.method); call rpc.discover for the list.",
                data: ControlErrorData(method: request.method)))
        }
        do throws(ControlError) {
            switch method {
            case .rpcDiscover:
                return .success(discovery)
            case .eventsSubscribe:
                let params = request.params == nil ? SubscribeParams() : try ControlCommand.decodeParams(SubscribeParams.self, request.params, method)
                registry.setSubscription(connection, subscribed: true, kinds: params.kinds)
                return .success(try encode(Subscription(subscribed: true, kinds: params.kinds)))
            case .eventsUnsubscribe:
                registry.setSubscription(connection, subscribed: false, kinds: nil)
                return .success(try encode(Subscription(subscribed: false)))
            default:
                let command = try ControlCommand(method: method, params: request.params)
                let reply = try await handler.handle(command, from: peer)
                guard reply.answers(method) else {
                    throw ControlError(.internalError, "The daemon answered \(method.rawValue) with the wrong result type; report this as a bug.")
                }
                do {
                    return .success(try reply.jsonValue())
                } catch {
                    throw ControlError(.internalError, "The daemon's answer to \(method.rawValue) could not be encoded: \(error).")
                }
            }
        } catch {
            return .failure(error)
        }
    }

    private func encode(_ value: some Encodable) throws(ControlError) -> JSONValue {
        do {
            return try JSONValue.encoding(value)
        } catch {
            throw ControlError(.internalError, "The answer could not be encoded: \(error).")
        }
    }
}
