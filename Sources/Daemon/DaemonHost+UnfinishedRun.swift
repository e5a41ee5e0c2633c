import BlockingCalls
import Session

extension DaemonHost {
    /// Finishes the previous run on disk if its end could not be written (a full disk leaves
    /// its manifest `running`): the same recovery the daemon does when it starts, so once space
    /// is freed the next `run.start` repairs, archives and marks that run `interrupted` before
    /// recording a new one (docs/runs.md). Reads one manifest when there was a previous run.
    func finishPreviousRunIfUnfinished() async {
        guard let previous = session, await previous.state.isOver else { return }
        let directory = RunDirectory(url: previous.runDirectory, taskRunUUID: previous.taskRunUUID)
        let status = try? await BlockingCall.run("run-manifest-check") { try directory.readManifest().status }
        guard status == .running else { return }
        logger.notice("The previous run was not finished on disk; finishing it before the new run.",
                      metadata: ["taskRunUUID": "\(previous.taskRunUUID)"])
        _ = await recoverInterruptedRuns()
    }
}
