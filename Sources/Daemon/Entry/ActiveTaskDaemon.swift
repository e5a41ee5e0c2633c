import ArgumentParser
import Foundation
public import Logging
import Systemd
public import TaskModel

/// The daemon as one call (docs/custom-tasks.md): `activetaskd` is
/// `await ActiveTaskDaemon.run()`, and an embedder's own daemon is the same call with its
/// registry, holding its custom task, step and async action types.
public enum ActiveTaskDaemon {
    /// Runs `activetaskd` with `arguments` (its options, without the program name; by default
    /// the process's), reading tasks with `registry` and the configuration's `typeAliases` on
    /// top. Call it once, from an executable's `main`, after bootstrapping logging with
    /// `logHandlerFactory(identifier:)` (the library never bootstraps it itself): it runs until
    /// SIGTERM or SIGINT and returns; on bad arguments, `--help` or a failed start it prints what
    /// `activetaskd` prints and exits the process with its status.
    public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst()), registry: TypeRegistry = .standard) async {
        do {
            var command = try DaemonCommand.parseAsRoot(arguments)
            if let daemon = command as? DaemonCommand {
                try await daemon.run(registry: registry, arguments: [CommandLine.arguments.first ?? "activetaskd"] + arguments)
            } else {
                // `--help` parses as ArgumentParser's own help command, which prints the help.
                try command.run()
            }
        } catch {
            DaemonCommand.exit(withError: error)
        }
    }

    /// The log handlers `activetaskd` uses, for the executable's own
    /// `LoggingSystem.bootstrap(_:)`: the journal when systemd started the process with its
    /// output there, else standard error; `identifier` is the journal's SYSLOG_IDENTIFIER.
    public static func logHandlerFactory(identifier: String = "activetaskd") -> @Sendable (String) -> any LogHandler {
        let environment = ProcessInfo.processInfo.environment
        return SystemLogging.handlerFactory(identifier: identifier, destination: SystemLogging.destination(environment: environment))
    }
}
