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
        for run in list.runs {
            print([run.taskRunUUID, run.state.rawValue, run.taskIdentifier, run.startDate ?? "-", run.runDirectory].joined(separator: "\t"))
        }
    }
}
