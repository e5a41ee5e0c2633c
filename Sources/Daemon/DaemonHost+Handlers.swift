import ControlProtocol
public import ControlServer
import Session

extension DaemonHost {
    /// One handler per method the daemon answers (docs/protocol.md, "Methods" and "Adding a
    /// method"); the server adds its own and refuses to start unless every declared method has
    /// exactly one. `daemon.info` and `run.status` read the published snapshot: they never wait
    /// for a command another client is carrying out.
    public nonisolated func registerHandlers(on routes: inout ControlRoutes) {
        routes.answerAtOnce(ControlMethods.daemonInfo) { _, _ in self.info() }
        routes.answerAtOnce(ControlMethods.runStatus) { _, _ in self.snapshot.status }
        route(ControlMethods.devicesList, on: &routes) { host, _ in try await host.devices() }
        route(ControlMethods.taskLoad, on: &routes) { host, params, context in try await host.load(params, from: context.peer) }
        route(ControlMethods.tasksList, on: &routes) { host, _ in try await host.taskList() }
        route(ControlMethods.tasksImage, on: &routes) { host, params in try await host.taskImage(params) }
        route(ControlMethods.tasksResource, on: &routes) { host, params in try await host.taskResource(params) }
        route(ControlMethods.runStart, on: &routes) { host, params in
            try await host.startRun(params)
            return await host.settledStatus()
        }
        route(ControlMethods.runForward, on: &routes) { host, params in
            try await host.forward(params)
            return await host.settledStatus()
        }
        routeToSession(ControlMethods.runBack, on: &routes) { session, _ in try await session.back() }
        routeToSession(ControlMethods.runSkip, on: &routes) { session, _ in try await session.skip() }
        routeToSession(ControlMethods.runAbandon, on: &routes) { session, _ in try await session.abandon() }
        routeToSession(ControlMethods.timerStart, on: &routes) { session, _ in try await session.startTimer() }
        routeToSession(ControlMethods.timerPause, on: &routes) { session, _ in try await session.pauseTimer() }
        routeToSession(ControlMethods.timerResume, on: &routes) { session, _ in try await session.resumeTimer() }
        routeToSession(ControlMethods.permissionAnswer, on: &routes) { session, params in
            try await session.answerPermission(params.requestID, granted: params.granted)
        }
        routeToSession(ControlMethods.runCancel, on: &routes) { session, params in try await session.cancel(save: params.save) }
        route(ControlMethods.runResume, on: &routes) { host, reference in
            try await host.resume(try Self.uuid(reference))
            return await host.settledStatus()
        }
        route(ControlMethods.runsList, on: &routes) { host, _ in RunList(runs: await host.runSummaries().map(Self.entry)) }
        route(ControlMethods.runResult, on: &routes) { host, reference in try await host.result(of: try Self.uuid(reference)) }
        route(ControlMethods.runArchive, on: &routes) { host, reference in try await host.archive(of: try Self.uuid(reference)) }
        route(ControlMethods.runQuality, on: &routes) { host, reference in try await host.quality(of: reference) }
        route(ControlMethods.runReport, on: &routes) { host, reference in try await host.report(of: reference) }
    }

    /// Registers a command carried out by the session of the run going on (refused when there
    /// is none, or when the params name another run: checked and taken on the actor at once, so
    /// a run that ends and is replaced meanwhile never gets it), answered with the status it leaves (its events applied: `settledStatus`).
    private nonisolated func routeToSession<Params: RunNamingParams>(
        _ method: ControlMethod<Params, SessionStatus>, on routes: inout ControlRoutes,
        _ body: @escaping @Sendable (TaskSession, Params) async throws -> Void
    ) {
        route(method, on: &routes) { host, params in
            try await body(try host.current(method.name, run: params.taskRunUUID), params)
            return await host.settledStatus()
        }
    }

    /// Registers `body` as `method`'s handler, carried out on the actor; a session's refusal is
    /// answered as the socket says it (`controlError`).
    private nonisolated func route<Params, Result>(
        _ method: ControlMethod<Params, Result>, on routes: inout ControlRoutes,
        _ body: @escaping @Sendable (isolated DaemonHost, Params) async throws -> Result
    ) {
        route(method, on: &routes) { host, params, _ in try await body(host, params) }
    }

    /// `route` for a handler that needs to know who asks (the request's connection and peer).
    private nonisolated func route<Params, Result>(
        _ method: ControlMethod<Params, Result>, on routes: inout ControlRoutes,
        _ body: @escaping @Sendable (isolated DaemonHost, Params, ControlRequestContext) async throws -> Result
    ) {
        routes.handle(method) { params, context in
            do {
                return try await body(self, params, context)
            } catch let error as SessionError {
                throw Self.controlError(error, method: method.name, state: self.snapshot.sessionState)
            }
        }
    }
}
