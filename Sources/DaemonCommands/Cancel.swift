import ArgumentParser
import ControlProtocol

/// `activetaskctl cancel [--save]`: stops the running run.
struct Cancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cancel the running run, saving it for resume with --save.")

    @OptionGroup var connection: SocketOptions

    @Flag(help: "Keep the run so that `activetaskctl resume RUN` can continue it.")
    var save = false

    func run() async throws {
        let params = CancelParams(save: save)
        let status = try await connection.withClient { try await $0.call(ControlMethods.runCancel, params) }
        print("\(status.taskRunUUID ?? "run") \(status.finishReason?.rawValue ?? status.state.rawValue)")
    }
}
