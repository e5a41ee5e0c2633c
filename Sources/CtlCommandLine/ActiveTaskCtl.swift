public import ArgumentParser
import DaemonCommands
import Foundation
import Logging
import OfflineCommands

/// `activetaskctl`: the command-line client of activetaskd, its reference front end, and the
/// hardware bring-up tools that need no daemon. Only the root: the commands live in
/// `OfflineCommands` (no daemon) and `DaemonCommands` (the control socket), `devices` picks one.
public struct ActiveTaskCtl: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "activetaskctl",
        abstract: "Validate, plan and run SageResearch active tasks; bring up sensors and audio.",
        subcommands: OfflineCommands.taskAndDeviceTools + [Devices.self] + OfflineCommands.runDirectoryTools
            + DaemonCommands.subcommands
    )

    /// Accepts the global `--socket P` before the subcommand (`activetaskctl --socket P run …`,
    /// README, "Running the daemon by hand") by moving it after the subcommand's name, where
    /// each daemon command reads it.
    public init() {}

    public static func main() async {
        // Only the executable bootstraps logging: to standard error, quiet unless
        // ACTIVETASK_LOG_LEVEL says otherwise; a command's own logger may be louder (--verbose,
        // OfflineCommands' CommandLogging). The commands print their own errors and results.
        let level = ProcessInfo.processInfo.environment["ACTIVETASK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        await main(SocketOptions.movingLeadingSocketOption(Array(CommandLine.arguments.dropFirst())))
    }
}
