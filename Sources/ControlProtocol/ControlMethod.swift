/// Every method of the control socket, with what it takes and answers (the OpenRPC document is
/// generated from this catalogue).
public enum ControlMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case daemonInfo = "daemon.info"
    case devicesList = "devices.list"
    case taskLoad = "task.load"
    case runStart = "run.start"
    case runForward = "run.forward"
    case runBack = "run.back"
    case runSkip = "run.skip"
    case runAbandon = "run.abandon"
    case timerStart = "timer.start"
    case timerPause = "timer.pause"
    case timerResume = "timer.resume"
    case permissionAnswer = "permission.answer"
    case runCancel = "run.cancel"
    case runResume = "run.resume"
    case runStatus = "run.status"
    case runsList = "runs.list"
    case runResult = "run.result"
    case runArchive = "run.archive"
    case runQuality = "run.qc"
    case runReport = "run.report"
    case eventsSubscribe = "events.subscribe"
    case eventsUnsubscribe = "events.unsubscribe"
    case rpcDiscover = "rpc.discover"

    /// The params type; nil for a method that takes none.
    public var paramsType: (any ControlSchemaDescribing.Type)? {
        switch self {
        case .taskLoad: TaskLoadParams.self
        case .runForward: ForwardParams.self
        case .permissionAnswer: PermissionAnswerParams.self
        case .runCancel: CancelParams.self
        case .runResume, .runResult, .runArchive, .runQuality, .runReport: RunReference.self
        case .eventsSubscribe: SubscribeParams.self
        case .daemonInfo, .devicesList, .runStart, .runBack, .runSkip, .runAbandon, .timerStart, .timerPause,
             .timerResume, .runStatus, .runsList, .eventsUnsubscribe, .rpcDiscover:
            nil
        }
    }

    /// The result type; nil for `rpc.discover`, whose result is the OpenRPC document itself.
    public var resultType: (any ControlSchemaDescribing.Type)? {
        switch self {
        case .daemonInfo: DaemonInfo.self
        case .devicesList: DeviceList.self
        case .taskLoad: LoadedTask.self
        case .runStart, .runForward, .runBack, .runSkip, .runAbandon, .timerStart, .timerPause, .timerResume,
             .permissionAnswer, .runCancel, .runResume, .runStatus:
            SessionStatus.self
        case .runsList: RunList.self
        case .runResult: RunResult.self
        case .runArchive: ArchiveLocation.self
        case .runQuality: RunQualityResult.self
        case .runReport: ReportLocation.self
        case .eventsSubscribe, .eventsUnsubscribe: Subscription.self
        case .rpcDiscover: nil
        }
    }

    /// Methods the server answers itself, without the daemon's handler.
    public var isAnsweredByServer: Bool {
        switch self {
        case .eventsSubscribe, .eventsUnsubscribe, .rpcDiscover: true
        default: false
        }
    }

    /// One line for the OpenRPC document.
    public var summary: String {
        switch self {
        case .daemonInfo: "What is running: version, data directory, devices in use, session state."
        case .devicesList: "The motion (IIO) and audio (ALSA) devices the daemon can use."
        case .taskLoad: "Load a task from a file or inline JSON; replaces a loaded task that has not started."
        case .runStart: "Start a run of the loaded task: shows its first step."
        case .runForward: "Leave the current step with its result from the front end and show the next."
        case .runBack: "Go back to the previous step."
        case .runSkip: "Skip the current step (its result records the skip)."
        case .runAbandon: "End the run as abandoned; results and archive are written."
        case .timerStart: "Start the current step's timer (steps that do not start it themselves)."
        case .timerPause: "Pause the step timer; prompts and the step end move with it."
        case .timerResume: "Resume a paused step timer."
        case .permissionAnswer: "Answer a permissionRequest event."
        case .runCancel: "Cancel the run: save it for run.resume, or discard it."
        case .runResume: "Resume a saved run at the step where it was saved."
        case .runStatus: "The session's state and the step on screen (for a front end that reconnects)."
        case .runsList: "The runs kept in the data directory."
        case .runResult: "A run's taskResult.json, run directory and archive."
        case .runArchive: "Where a run's upload archive is."
        case .runQuality: "A finished run's quality checks (qc.json): the verdict and every check (docs/quality.md)."
        case .runReport: "Writes a run's report (one self-contained HTML file) and says where it is."
        case .eventsSubscribe: "Receive event notifications on this connection."
        case .eventsUnsubscribe: "Stop receiving event notifications on this connection."
        case .rpcDiscover: "This OpenRPC document."
        }
    }

    /// The application errors the method may answer with (JSON-RPC's own codes apply to all).
    public var errors: [ControlErrorCode] {
        switch self {
        case .daemonInfo, .runStatus, .runsList, .eventsSubscribe, .eventsUnsubscribe, .rpcDiscover: []
        case .devicesList: [.deviceUnavailable]
        case .taskLoad: [.taskInvalid, .notFound, .runAlreadyRunning]
        case .runStart: [.commandOutOfOrder, .runAlreadyRunning, .deviceUnavailable]
        case .runForward, .runBack, .runSkip, .runAbandon, .timerStart, .timerPause, .timerResume:
            [.noRunningRun, .commandOutOfOrder, .actionNotAllowed]
        case .permissionAnswer: [.noRunningRun, .notFound, .commandOutOfOrder]
        case .runCancel: [.noRunningRun]
        case .runResume: [.notFound, .commandOutOfOrder, .runAlreadyRunning, .deviceUnavailable]
        case .runResult, .runArchive, .runQuality, .runReport: [.notFound, .commandOutOfOrder]
        }
    }
}
