public import ArgumentParser

/// The `activetaskctl` commands that need no daemon: task files, sensors, audio and voice on
/// this machine, and checks and reports of run directories.
public enum OfflineCommands {
    /// Task files and this machine's sensors, microphone and voice (`validate` … `say`).
    public static let taskAndDeviceTools: [any ParsableCommand.Type] = [
        Validate.self, Plan.self, Sensors.self, Record.self, Fuse.self, RecordAudio.self, Say.self,
    ]

    /// Run directories already written (`report`, `qc`) and the upload queue (`uploads`).
    public static let runDirectoryTools: [any ParsableCommand.Type] = [Report.self, QualityCheckCommand.self, Uploads.self]
}
