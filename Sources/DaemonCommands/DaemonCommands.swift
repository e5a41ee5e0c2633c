public import ArgumentParser

/// The `activetaskctl` commands that talk to activetaskd over its control socket
/// (docs/protocol.md): the run front ends and the queries of the daemon's runs.
public enum DaemonCommands {
    /// The subcommands, in the order `activetaskctl --help` lists them.
    public static let subcommands: [any ParsableCommand.Type] = [
        Status.self, Runs.self, RunCommand.self, RunResultCommand.self, ArchiveCommand.self, Cancel.self, Resume.self,
    ]
}
