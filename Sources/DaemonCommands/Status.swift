import ArgumentParser
import CommandOutput
import ControlProtocol

/// `activetaskctl status`: the daemon's session: state, task, run and the step on screen.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what the daemon is doing.")

    @OptionGroup var connection: SocketOptions

    @Flag(help: "Print JSON (run.status's result).")
    var json = false

    func run() async throws {
        let status = try await connection.withClient { try await $0.status() }
        if json {
            try JSONOutput.print(status)
            return
        }
        print("state: \(status.state.rawValue)")
        if let task = status.taskIdentifier { print("task: \(task)") }
        if let run = status.taskRunUUID { print("run: \(run)") }
        if let directory = status.runDirectory { print("run directory: \(directory)") }
        if let step = status.step { print("step: \(step.stepPath) (\(step.type))") }
        if let timer = status.timer {
            print("timer: \(Int(timer.elapsed)) of \(Int(timer.duration)) s\(timer.running ? "" : ", paused")")
        }
        if let request = status.permissionRequest { print("waiting for permission: \(request.permission) (request \(request.requestID))") }
        if let reason = status.finishReason { print("finished: \(reason.rawValue)") }
        if let archive = status.archive { print("archive: \(archive)") }
    }
}
