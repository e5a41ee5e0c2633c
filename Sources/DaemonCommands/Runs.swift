import ArgumentParser
import CommandOutput
import ControlProtocol

/// `activetaskctl runs`: the runs the daemon keeps.
struct Runs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the runs kept in the daemon's data directory.")

    @OptionGroup var connection: SocketOptions

    @Flag(help: "Print JSON (runs.list's result).")
    var json = false

    func run() async throws {
        let list = try await connection.withClient { try await $0.call(ControlMethods.runsList) }
        if json {
            try JSONOutput.print(list)
            return
        }
        print(Self.lines(list.runs), terminator: "")
    }

    /// One tab-separated line per run: UUID, state, task, start, directory, and, when any run has
    /// an upload state (uploads are configured), a last UPLOAD column (`-` for a run without one).
    /// The column goes last so that the others keep their places for scripts.
    static func lines(_ runs: [RunListEntry]) -> String {
        let showsUpload = runs.contains { $0.upload != nil }
        return runs.map { run in
            var columns = [run.taskRunUUID, run.state.rawValue, run.taskIdentifier, run.startDate ?? "-", run.runDirectory]
            if showsUpload { columns.append(run.upload?.state.rawValue ?? "-") }
            return columns.joined(separator: "\t") + "\n"
        }.joined()
    }
}
