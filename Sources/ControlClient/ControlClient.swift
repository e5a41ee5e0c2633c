public import TaskModel
import ControlChannel
public import ControlProtocol
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A connection to activetaskd's control socket: calls methods and receives events.
///
/// Open it with `ControlClient.withConnection(socketPath:_:)`; calls may be made from several
/// tasks at once and are matched to their answers by id.
public final class ControlClient: Sendable {
    /// Where a call is: sent, answered before anyone waited, or waited for.
    private enum Slot {
        case sent
        case answered(JSONRPCResponse)
        case waiting(CheckedContinuation<JSONRPCResponse, any Error>)
    }

    private struct State {
        var nextIdentifier: Int64 = 1
        var slots: [Int64: Slot] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    private let outbound: NIOAsyncChannelOutboundWriter<NIOCore.ByteBuffer>
    private let eventContinuation: AsyncStream<ControlEvent>.Continuation
    /// Events received after `subscribe()`, in order; ends when the connection closes.
    public let events: AsyncStream<ControlEvent>

    private init(outbound: NIOAsyncChannelOutboundWriter<NIOCore.ByteBuffer>) {
        self.outbound = outbound
        (events, eventContinuation) = AsyncStream.makeStream(of: ControlEvent.self, bufferingPolicy: .unbounded)
    }

    /// Connects to `socketPath`, runs `body` with the connection, and closes it.
    public static func withConnection<T: Sendable>(
        socketPath: String, _ body: @Sendable (ControlClient) async throws -> T
    ) async throws -> T {
        let channel: NIOAsyncChannel<ControlFrame, NIOCore.ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(ControlLineDecoder()))
                        return try NIOAsyncChannel<ControlFrame, NIOCore.ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw ControlClientError.cannotConnect(socketPath: socketPath, reason: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            let client = ControlClient(outbound: outbound)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { client.closed() }
                    for try await frame in inbound {
                        client.received(frame)
                    }
                }
                defer { group.cancelAll() }
                return try await body(client)
            }
        }
    }

    /// Calls `method` with `params` and returns its result, or throws the daemon's error.
    public func call(_ method: String, params: JSONValue? = nil) async throws -> JSONValue {
        let identifier: Int64? = state.withLock { state in
            guard !state.isClosed else { return nil }
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.slots[identifier] = .sent
            return identifier
        }
        guard let identifier else { throw ControlClientError.connectionClosed }
        do {
            let request = JSONRPCRequest(id: .number(identifier), method: method, params: params)
            try await outbound.write(NIOCore.ByteBuffer(bytes: try JSONRPCLineWriter.line(request)))
        } catch {
            _ = state.withLock { $0.slots.removeValue(forKey: identifier) }
            throw error
        }
        let response = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONRPCResponse, any Error>) in
            let answer: Result<JSONRPCResponse, any Error>? = state.withLock { state in
                switch state.slots[identifier] {
                case .answered(let response)?:
                    state.slots[identifier] = nil
                    return .success(response)
                case .sent?:
                    state.slots[identifier] = .waiting(continuation)
                    return nil
                case .waiting?, nil:
                    return .failure(ControlClientError.connectionClosed)
                }
            }
            if let answer { continuation.resume(with: answer) }
        }
        switch response.outcome {
        case .result(let result): return result
        case .error(let error): throw ControlClientError.remote(ControlError(error))
        }
    }

    /// Calls the declared `method` with `params` and decodes its documented result.
    public func call<Params, Result>(_ method: ControlMethod<Params, Result>, _ params: Params) async throws -> Result {
        let result = try await call(method.name, params: try method.requestParams(params))
        do {
            return try method.decodeResult(result)
        } catch {
            throw ControlClientError.unexpectedAnswer(method: method.name, reason: "\(error)")
        }
    }

    /// Calls the declared `method`, which takes no params, and decodes its documented result.
    public func call<Result>(_ method: ControlMethod<NoParams, Result>) async throws -> Result {
        try await call(method, NoParams())
    }

    /// Calls the declared run command `method` on whichever run is under way.
    public func call<Result>(_ method: ControlMethod<RunCommandParams, Result>) async throws -> Result {
        try await call(method, RunCommandParams())
    }

    /// The session's state and the step on screen (`run.status`).
    public func status() async throws -> SessionStatus {
        try await call(ControlMethods.runStatus)
    }

    /// Subscribes this connection to events (every kind when `kinds` is nil).
    @discardableResult
    public func subscribe(kinds: [ControlEventKind]? = nil) async throws -> Subscription {
        try await call(ControlMethods.eventsSubscribe, SubscribeParams(kinds: kinds))
    }

    private func received(_ frame: ControlFrame) {
        guard case .line(let line) = frame else { return }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.readableBytesView)) else { return }
        if value["method"] != nil, value["id"] == nil {
            if value["method"] == .string(ControlEvent.notificationMethod), let params = value["params"],
               let event = try? params.decode(ControlEvent.self) {
                eventContinuation.yield(event)
            }
            return
        }
        guard let response = try? value.decode(JSONRPCResponse.self), case .number(let identifier)? = response.id else { return }
        let waiting: CheckedContinuation<JSONRPCResponse, any Error>? = state.withLock { state in
            switch state.slots[identifier] {
            case .waiting(let continuation)?:
                state.slots[identifier] = nil
                return continuation
            case .sent?:
                state.slots[identifier] = .answered(response)
                return nil
            case .answered?, nil:
                return nil
            }
        }
        waiting?.resume(returning: response)
    }

    private func closed() {
        let waiting = state.withLock { state in
            state.isClosed = true
            defer { state.slots = [:] }
            return state.slots.values.compactMap { slot -> CheckedContinuation<JSONRPCResponse, any Error>? in
                if case .waiting(let continuation) = slot { return continuation }
                return nil
            }
        }
        for continuation in waiting {
            continuation.resume(throwing: ControlClientError.connectionClosed)
        }
        eventContinuation.finish()
    }
}
