import ControlServer
import Foundation
import Logging
import ServiceLifecycle
import TestSupport

/// Runs a `ControlServer` over a handler in a service group for the length of a test, on a
/// socket in a scratch directory, and shuts it down gracefully afterwards.
enum TestServer {
    static func with<T: Sendable>(
        handler: any ControlHandler,
        listener: ControlServerConfiguration.Listener? = nil,
        outboundQueueLimit: Int = 1024,
        logs: RecordingLogHandler.Store = .init(),
        _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("control.sock").path
        let logger = Logger(label: "control-server-test") { _ in RecordingLogHandler(store: logs) }
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        let server = ControlServer(
            configuration: ControlServerConfiguration(listener: listener ?? .path(path), outboundQueueLimit: outboundQueueLimit),
            handler: handler, logger: logger, onListening: { readyContinuation.yield() })
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            _ = await iterator.next()
            do {
                let result = try await body(path)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
