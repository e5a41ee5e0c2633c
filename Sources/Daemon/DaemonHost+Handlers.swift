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
        route(ControlMethods.taskLoad, on: &routes) { host, params in try await host.load(params) }
        route(ControlMethods.runStart, on: &routes) { host, _ in
            try await host.startRun()
            return host.status()
        }
        route(ControlMethods.runForward, on: &routes) { host, params in
            try await host.forward(params)
            return host.status()
        }
        route(ControlMethods.runBack, on: &routes) { host, _ in
            try await host.current(ControlMethods.runBack.name).back()
            return host.status()
        }
        route(ControlMethods.runSkip, on: &routes) { host, _ in
            try await host.current(ControlMethods.runSkip.name).skip()
            return host.status()
        }
        route(ControlMethods.runAbandon, on: &routes) { host, _ in
            try await host.current(ControlMethods.runAbandon.name).abandon()
            return host.status()
        }
        route(ControlMethods.timerStart, on: &routes) { host, _ in
            try await host.current(ControlMethods.timerStart.name).startTimer()
            return host.status()
        }
        route(ControlMethods.timerPause, on: &routes) { host, _ in
            try await host.current(ControlMethods.timerPause.name).pauseTimer()
            return host.status()
        }
        route(ControlMethods.timerResume, on: &routes) { host, _ in
            try await host.current(ControlMethods.timerResume.name).resumeTimer()
            return host.status()
        }
        route(ControlMethods.permissionAnswer, on: &routes) { host, params in
            try await host.current(ControlMethods.permissionAnswer.name).answerPermission(params.requestID, granted: params.granted)
            return host.status()
        }
        route(ControlMethods.runCancel, on: &routes) { host, params in
            try await host.current(ControlMethods.runCancel.name).cancel(save: params.save)
            return host.status()
        }
        route(ControlMethods.runResume, on: &routes) { host, reference in
            try await host.resume(try Self.uuid(reference))
            return host.status()
        }
        route(ControlMethods.runsList, on: &routes) { host, _ in RunList(runs: await host.runSummaries().map(Self.entry)) }
        route(ControlMethods.runResult, on: &routes) { host, reference in try await host.result(of: try Self.uuid(reference)) }
        route(ControlMethods.runArchive, on: &routes) { host, reference in try await host.archive(of: try Self.uuid(reference)) }
        route(ControlMethods.runQuality, on: &routes) { host, reference in try await host.quality(of: reference) }
        route(ControlMethods.runReport, on: &routes) { host, reference in try await host.report(of: reference) }
    }

    /// Registers `body` as `method`'s handler, carried out on the actor; a session's refusal is
    /// answered as the socket says it (`controlError`).
    private nonisolated func route<Params, Result>(
        _ method: ControlMethod<Params, Result>, on routes: inout ControlRoutes,
        _ body: @escaping @Sendable (isolated DaemonHost, Params) async throws -> Result
    ) {
        routes.handle(method) { params, _ in
            do {
                return try await body(self, params)
            } catch let error as SessionError {
                throw Self.controlError(error, method: method.name, state: self.snapshot.sessionState)
            }
        }
    }
}
