import ArgumentParser
import Foundation

/// `activetaskctl`: the command-line client of activetaskd, its reference front end, and the
/// hardware bring-up tools that need no daemon.
@main
struct ActiveTaskCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activetaskctl",
        abstract: "Validate, plan and run SageResearch active tasks; bring up sensors and audio.",
        subcommands: [
            Validate.self, Plan.self, Sensors.self, Record.self, Fuse.self, RecordAudio.self, Say.self, Devices.self,
            Report.self, QualityCheckCommand.self,
            Status.self, Runs.self, RunCommand.self, RunResultCommand.self, ArchiveCommand.self, Cancel.self, Resume.self,
        ]
    )

    /// Accepts the global `--socket P` before the subcommand (`activetaskctl --socket P run …`,
    /// DESIGN 7) by moving it after the subcommand's name, where each daemon command reads it.
    static func main() async {
        await main(SocketOptions.movingLeadingSocketOption(Array(CommandLine.arguments.dropFirst())))
    }
}
