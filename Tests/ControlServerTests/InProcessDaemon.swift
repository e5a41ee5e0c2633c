import ControlServer
import Daemon
import Foundation
import Logging
import TestSupport

/// A daemon in this process for the tests here: a `DaemonHost` with `DaemonSettings.quiet` in a
/// scratch directory, running while `body` calls its handlers through a dispatcher (no socket);
/// `prepare` runs before the host does (e.g. `holdEventsBack`).
enum InProcessDaemon {
    static func with(
        _ label: String, prepare: (DaemonHost) async -> Void = { _ in },
        _ body: (DaemonHost, ControlRequestDispatcher) async throws -> Void
    ) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let quiet = Logger(label: label) { _ in SwiftLogNoOpLogHandler() }
        let host = DaemonHost(settings: .quiet(in: scratch.url, label: label))
        await prepare(host)
        let dispatcher = ControlRequestDispatcher(
            handler: host, registry: ControlConnectionRegistry(logger: quiet), logger: quiet, maximumLineLength: 1 << 20)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await host.run() }
            defer { group.cancelAll() }
            try await body(host, dispatcher)
        }
    }
}
