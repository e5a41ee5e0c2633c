import ArgumentParser

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
        ]
    )
}
