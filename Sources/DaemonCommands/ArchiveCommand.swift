import ArgumentParser
import ControlProtocol

/// `activetaskctl archive RUN`: where a run's upload archive is.
struct ArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "archive", abstract: "Print the path of a run's upload archive.")

    @OptionGroup var connection: SocketOptions

    @Argument(help: "The run's taskRunUUID.")
    var run: String

    func run() async throws {
        let reference = RunReference(taskRunUUID: run)
        let location = try await connection.withClient { try await $0.call(ControlMethods.runArchive, reference) }
        print(location.archive)
    }
}
