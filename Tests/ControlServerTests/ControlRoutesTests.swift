import ControlClient
import ControlProtocol
import ControlServer
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport

/// The route table: one handler per declared method, checked before the socket listens, and
/// the client's typed call reaching the handler of the declaration it names.
@Suite struct ControlRoutesTests {
    /// A handler whose table a test writes.
    struct Handler: ControlHandler {
        var register: @Sendable (inout ControlRoutes) -> Void

        func registerHandlers(on routes: inout ControlRoutes) { register(&routes) }
        func events() -> AsyncStream<ControlEvent> { AsyncStream { $0.finish() } }
    }

    /// What the handlers of a test were called with.
    final class Calls: Sendable {
        let names = Mutex<[String]>([])
        let forwarded = Mutex<ForwardParams?>(nil)
    }

    /// Refuses every declared method not registered yet, recording its name when called.
    static func refuseTheRest(_ routes: inout ControlRoutes, except left: Set<String> = [], calls: Calls? = nil) {
        for method in ControlMethods.all where !routes.registeredMethods.contains(method.name) && !left.contains(method.name) {
            routes.refuse(method) { _ in
                calls?.names.withLock { $0.append(method.name) }
                return ControlError(.internalError, "Not in this test.")
            }
        }
    }

    @Test func everyDeclaredMethodWithOneHandlerPasses() throws {
        var routes = ControlRoutes()
        Self.refuseTheRest(&routes)
        try routes.check()
        #expect(routes.registeredMethods == Set(ControlMethods.all.map(\.name)))
    }

    @Test func aMissingHandlerIsRefusedByName() {
        var routes = ControlRoutes()
        routes.handle(ControlMethods.runBack) { _, _ in SessionStatus(state: .idle) }
        Self.refuseTheRest(&routes, except: [ControlMethods.runSkip.name])
        #expect(throws: ControlRoutesError(missing: ["run.skip"], duplicates: [], undeclared: [])) { try routes.check() }
    }

    @Test func aSecondHandlerForAMethodIsRefusedByName() {
        var routes = ControlRoutes()
        routes.handle(ControlMethods.runBack) { _, _ in SessionStatus(state: .idle) }
        routes.answerAtOnce(ControlMethods.runBack) { _, _ in SessionStatus(state: .idle) }
        Self.refuseTheRest(&routes)
        #expect(throws: ControlRoutesError(missing: [], duplicates: ["run.back"], undeclared: [])) { try routes.check() }
    }

    @Test func aHandlerForAMethodMissingFromTheCatalogueIsRefused() {
        var routes = ControlRoutes()
        Self.refuseTheRest(&routes)
        routes.handle(ControlMethod<NoParams, SessionStatus>("run.fly", summary: "Not declared.")) { _, _ in SessionStatus(state: .idle) }
        do {
            try routes.check()
            Issue.record("A handler for an undeclared method passed.")
        } catch {
            #expect(error.undeclared == ["run.fly"])
            #expect(error.description.contains("ControlMethods.all"))
        }
    }

    /// The daemon's server does not listen with a table that lacks a method.
    @Test func aServerWithAMethodUnhandledDoesNotStart() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("control.sock").path
        let handler = Handler { routes in
            routes.handle(ControlMethods.runBack) { _, _ in SessionStatus(state: .idle) }
            Self.refuseTheRest(&routes, except: [ControlMethods.runSkip.name])
        }
        let server = ControlServer(configuration: .init(listener: .path(path)), handler: handler,
                                   logger: .init(label: "x") { _ in RecordingLogHandler(store: .init()) })
        do {
            try await server.run()
            Issue.record("The server started with run.skip unhandled.")
        } catch let error as ControlRoutesError {
            #expect(error == ControlRoutesError(missing: ["run.skip"], duplicates: [], undeclared: []))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the server bound its socket before checking its handlers")
    }

    /// A typed call reaches the handler of the declaration it names, with the params it was given.
    @Test func theClientCallsEachMethodByItsDeclaredName() async throws {
        let calls = Calls()
        let handler = Handler { routes in
            routes.handle(ControlMethods.runForward) { params, _ in
                calls.names.withLock { $0.append(ControlMethods.runForward.name) }
                calls.forwarded.withLock { $0 = params }
                return SessionStatus(state: .running)
            }
            Self.refuseTheRest(&routes, calls: calls)
        }
        let status = try await TestServer.with(handler: handler) { path in
            try await ControlClient.withConnection(socketPath: path) { client in
                _ = try? await client.call(ControlMethods.runBack)
                _ = try? await client.call(ControlMethods.runsList)
                _ = try? await client.call(ControlMethods.runResume, RunReference(taskRunUUID: "u"))
                _ = try? await client.call(ControlMethods.taskLoad, TaskLoadParams(path: "walk.json"))
                return try await client.call(ControlMethods.runForward, ForwardParams(stepPath: "t/a"))
            }
        }
        #expect(calls.names.withLock { $0 } == ["run.back", "runs.list", "run.resume", "task.load", "run.forward"])
        #expect(calls.forwarded.withLock { $0 } == ForwardParams(stepPath: "t/a"))
        #expect(status.state == .running)
    }
}
