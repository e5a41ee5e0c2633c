/// The one-line status the daemon shows in `systemctl status` (the `STATUS=` of sd_notify(3)).
public enum ServiceStatus: Sendable, Hashable {
    /// Repairing and saving runs that a crash or power cut interrupted.
    case recovering(runs: Int)
    /// Waiting for a front end to start a task.
    case idle
    /// A task is running; `stepPath` is the step shown (the step path of docs/task-format.md, `Task/section/step`).
    case recording(task: String, stepPath: String)
    /// Shutting down: stopping recorders and saving the run.
    case stopping
    /// Anything else, as written (line breaks become spaces).
    case custom(String)

    /// The text sent as `STATUS=`.
    public var text: String {
        let text = switch self {
        case .recovering(let runs): "recovering \(runs) interrupted run\(runs == 1 ? "" : "s")"
        case .idle: "idle"
        case .recording(let task, let stepPath): "recording \(task) step \(stepPath)"
        case .stopping: "stopping: saving the run"
        case .custom(let text): text
        }
        // One assignment per line: a line break would end the STATUS= value early.
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
