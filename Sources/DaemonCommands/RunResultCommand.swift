import ArgumentParser
import CommandOutput
import ControlProtocol

/// `activetaskctl result RUN`: a run's task result (taskResult.json) with its directory and archive.
struct RunResultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "result", abstract: "Print a run's task result as JSON.")

    @OptionGroup var connection: SocketOptions

    @Argument(help: "The run's taskRunUUID.")
    var run: String

    func run() async throws {
        let reference = RunReference(taskRunUUID: run)
        let result = try await connection.withClient { try await $0.call(ControlMethods.runResult, reference) }
        try JSONOutput.print(result)
    }
}
