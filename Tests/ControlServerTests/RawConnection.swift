import TaskModel
import ControlChannel
import ControlProtocol
import Foundation
import NIOCore
import NIOPosix

/// A connection that writes raw bytes and reads raw lines, for inputs no client would send.
struct RawConnection {
    let inbound: NIOAsyncChannelInboundStream<ControlFrame>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<NIOCore.ByteBuffer>

    static func with<T: Sendable>(_ path: String, _ body: @Sendable (inout RawConnection) async throws -> T) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(ControlLineDecoder(maximumLength: 1 << 24)))
                    return try NIOAsyncChannel<ControlFrame, NIOCore.ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = RawConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&connection)
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        try await outbound.write(NIOCore.ByteBuffer(bytes: bytes))
    }

    /// The next line as JSON; nil when the server closed the connection.
    mutating func readJSON() async throws -> JSONValue? {
        var iterator = inbound
        defer { self = RawConnection(inbound: iterator, outbound: outbound) }
        guard case .line(let line)? = try await iterator.next() else { return nil }
        return try JSONDecoder().decode(JSONValue.self, from: Data(line.readableBytesView))
    }

    /// Sends `bytes` and returns the response (skipping notifications).
    mutating func exchange(_ bytes: [UInt8]) async throws -> JSONValue? {
        try await send(bytes)
        while let message = try await readJSON() {
            if message["id"] != nil { return message }
        }
        return nil
    }
}
