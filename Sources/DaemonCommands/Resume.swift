import ArgumentParser
import ControlProtocol

/// `activetaskctl resume RUN`: resumes a saved run at the step where it was saved.
struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resume a saved run; continue it with `activetaskctl run --attach` or another front end.")

    @OptionGroup var connection: SocketOptions

    @Argument(help: "The saved run's taskRunUUID.")
    var run: String

    func run() async throws {
        let reference = RunReference(taskRunUUID: run)
        let status = try await connection.withClient { try await $0.call(ControlMethods.runResume, reference) }
        print("\(status.taskRunUUID ?? run) \(status.state.rawValue) at \(status.step?.stepPath ?? "?")")
    }
}
