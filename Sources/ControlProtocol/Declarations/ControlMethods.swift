/// Every method of the control socket, each declared once (docs/protocol.md, "Methods" and
/// "Adding a method"). `all` is the order of the OpenRPC document; a handler registered for a
/// declaration missing from it is refused when the server starts.
public enum ControlMethods {
    public static let daemonInfo = ControlMethod<NoParams, DaemonInfo>(
        "daemon.info", summary: "What is running: version, data directory, devices in use, session state.")
    public static let devicesList = ControlMethod<NoParams, DeviceList>(
        "devices.list", summary: "The motion (IIO) and audio (ALSA) devices the daemon can use.",
        errors: [.deviceUnavailable])
    public static let taskLoad = ControlMethod<TaskLoadParams, LoadedTask>(
        "task.load", summary: "Load a task from a file or inline JSON; replaces a loaded task that has not started.",
        errors: [.taskInvalid, .notFound, .runAlreadyRunning])
    public static let tasksList = ControlMethod<NoParams, TaskList>(
        "tasks.list", summary: "The task files in the daemon's task directory: title, detail, icon, estimated minutes, or why one does not load.")
    public static let tasksImage = ControlMethod<TaskImageParams, TaskImage>(
        "tasks.image", summary: "An image beside a task file (a step's imageName, a task's icon), base64 with its content type.",
        errors: [.notFound, .invalidParams])
    public static let tasksResource = ControlMethod<TaskResourceParams, TaskResource>(
        "tasks.resource", summary: "A web page or video beside a task file (a webView or videoView action's url), in pieces of 384 KiB, base64.",
        errors: [.notFound, .invalidParams])
    public static let runStart = ControlMethod<RunStartParams, SessionStatus>(
        "run.start", summary: "Start a run of the loaded task: shows its first step.",
        errors: [.commandOutOfOrder, .runAlreadyRunning, .deviceUnavailable])
    public static let runForward = ControlMethod<ForwardParams, SessionStatus>(
        "run.forward", summary: "Leave the current step with its result from the front end and show the next.",
        errors: stepCommandErrors)
    public static let runBack = ControlMethod<RunCommandParams, SessionStatus>(
        "run.back", summary: "Go back to the previous step.", errors: stepCommandErrors)
    public static let runSkip = ControlMethod<RunCommandParams, SessionStatus>(
        "run.skip", summary: "Skip the current step (its result records the skip).", errors: stepCommandErrors)
    public static let runAbandon = ControlMethod<RunCommandParams, SessionStatus>(
        "run.abandon", summary: "End the run as abandoned; results and archive are written.", errors: stepCommandErrors)
    public static let timerStart = ControlMethod<RunCommandParams, SessionStatus>(
        "timer.start", summary: "Start the current step's timer (steps that do not start it themselves).",
        errors: stepCommandErrors)
    public static let timerPause = ControlMethod<RunCommandParams, SessionStatus>(
        "timer.pause", summary: "Pause the step timer; prompts and the step end move with it.", errors: stepCommandErrors)
    public static let timerResume = ControlMethod<RunCommandParams, SessionStatus>(
        "timer.resume", summary: "Resume a paused step timer.", errors: stepCommandErrors)
    public static let permissionAnswer = ControlMethod<PermissionAnswerParams, SessionStatus>(
        "permission.answer", summary: "Answer a permissionRequest event.",
        errors: [.noRunningRun, .notFound, .commandOutOfOrder])
    public static let runCancel = ControlMethod<CancelParams, SessionStatus>(
        "run.cancel", summary: "Cancel the run: save it for run.resume, or discard it.", errors: [.noRunningRun])
    public static let runResume = ControlMethod<RunReference, SessionStatus>(
        "run.resume", summary: "Resume a saved run at the step where it was saved.",
        errors: [.notFound, .commandOutOfOrder, .runAlreadyRunning, .deviceUnavailable])
    public static let runStatus = ControlMethod<NoParams, SessionStatus>(
        "run.status", summary: "The session's state and the step on screen (for a front end that reconnects).")
    public static let runsList = ControlMethod<NoParams, RunList>(
        "runs.list", summary: "The runs kept in the data directory.")
    public static let runResult = ControlMethod<RunReference, RunResult>(
        "run.result", summary: "A run's taskResult.json, run directory and archive.", errors: finishedRunErrors)
    public static let runArchive = ControlMethod<RunReference, ArchiveLocation>(
        "run.archive", summary: "Where a run's upload archive is.", errors: finishedRunErrors)
    public static let runQuality = ControlMethod<RunReference, RunQualityResult>(
        "run.qc", summary: "A finished run's quality checks (qc.json): the verdict and every check (docs/quality.md).",
        errors: finishedRunErrors)
    public static let runReport = ControlMethod<RunReference, ReportLocation>(
        "run.report", summary: "Writes a run's report (one self-contained HTML file) and says where it is.",
        errors: finishedRunErrors)
    public static let eventsSubscribe = ControlMethod<SubscribeParams, Subscription>(
        "events.subscribe", summary: "Receive event notifications on this connection.")
    public static let eventsUnsubscribe = ControlMethod<IgnoredParams, Subscription>(
        "events.unsubscribe", summary: "Stop receiving event notifications on this connection.")
    public static let rpcDiscover = ControlMethod<IgnoredParams, DiscoveryDocument>(
        "rpc.discover", summary: "This OpenRPC document.")

    /// Every declaration, in the OpenRPC document's order.
    public static let all: [any ControlMethodDescribing] = [
        daemonInfo, devicesList, taskLoad, tasksList, tasksImage, tasksResource, runStart, runForward, runBack, runSkip, runAbandon,
        timerStart, timerPause, timerResume, permissionAnswer, runCancel, runResume, runStatus,
        runsList, runResult, runArchive, runQuality, runReport, eventsSubscribe, eventsUnsubscribe, rpcDiscover,
    ]

    /// The declaration named `name`, if any.
    public static func named(_ name: String) -> (any ControlMethodDescribing)? {
        byName[name]
    }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// What a command on the step on screen may be refused with.
    private static let stepCommandErrors: [ControlErrorCode] = [.noRunningRun, .commandOutOfOrder, .actionNotAllowed]
    /// What a question about a kept run may be refused with.
    private static let finishedRunErrors: [ControlErrorCode] = [.notFound, .commandOutOfOrder]
}
