import AsyncActions
import ControlProtocol
import ControlServer
import Daemon
import Foundation
import Logging
import Session
import TaskModel
import Testing
import TestSupport

/// activetaskd's table: the daemon registers exactly one handler for every declared method but
/// the server's own, so that its server starts (docs/protocol.md, "Adding a method").
@Suite struct DaemonHandlerTableTests {
    @Test func theDaemonHandlesEveryDeclaredMethodButTheServersOwnOnce() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let host = DaemonHost(settings: .quiet(in: scratch.url, label: "daemon-table"))
        var routes = ControlRoutes()
        host.registerHandlers(on: &routes)
        let serversOwn = [ControlMethods.rpcDiscover, ControlMethods.eventsSubscribe, ControlMethods.eventsUnsubscribe] as [any ControlMethodDescribing]
        #expect(routes.registeredMethods == Set(ControlMethods.all.map(\.name)).subtracting(serversOwn.map(\.name)))
        // With the server's own methods beside them, the table passes the check the server makes
        // before it listens (which also refuses a method the daemon registered twice).
        for method in serversOwn {
            routes.refuse(method) { _ in ControlError(.internalError, "The server answers this itself.") }
        }
        try routes.check()
    }
}
