import ControlProtocol
import Session

/// What `daemon.info` and `run.status` answer from: the `DaemonHost` actor publishes a new
/// snapshot after every change to what they show (the loaded task, the session, its `RunView`,
/// the settings), and the control server reads the latest one without waiting for the actor
/// (docs/daemon.md, "Reads without waiting"). The actor is the only writer and answers its own
/// commands from the same snapshot, so both paths say the same thing.
struct DaemonSnapshot: Sendable {
    var loadedTaskIdentifier: String?
    var session: TaskSession?
    var view = RunView()
    var dataDirectory: String
    var devices: DaemonDevices

    /// The session's state as the socket names it (the session's own state is read as it is now).
    var sessionState: ControlSessionState {
        guard let session else { return loadedTaskIdentifier == nil ? .idle : .loaded }
        return Self.controlState(session.currentState)
    }

    /// `run.status`, and the answer to every run command.
    var status: SessionStatus {
        guard let session else { return SessionStatus(state: sessionState, taskIdentifier: loadedTaskIdentifier) }
        let state = session.currentState
        var status = SessionStatus(state: Self.controlState(state), taskIdentifier: session.task.identifier)
        status.taskRunUUID = session.taskRunUUID.uuidString
        status.runDirectory = session.runDirectory.path
        status.step = view.step
        status.timer = view.timer
        status.permissionRequest = view.permissionRequest
        switch state {
        case .finished(let reason): status.finishReason = RunState(reason)
        case .saved: status.finishReason = .saved
        default: break
        }
        status.archive = view.finished?.archive
        status.cohorts = session.currentCohorts.sorted()
        return status
    }

    /// `daemon.info` for a daemon `uptime` seconds old.
    func info(pid: Int, uptime: Double, version: String) -> DaemonInfo {
        DaemonInfo(
            name: "activetaskd", version: version, pid: pid, uptime: uptime, dataDirectory: dataDirectory,
            iioURI: devices.iioURI, captureDevice: devices.captureDevice, playbackDevice: devices.playbackDevice,
            session: sessionState)
    }

    static func controlState(_ state: SessionState) -> ControlSessionState {
        switch state {
        case .loaded: .loaded
        case .running: .running
        case .waitingForPermission: .waitingForPermission
        case .paused: .paused
        case .finished: .finished
        case .saved: .saved
        }
    }
}
