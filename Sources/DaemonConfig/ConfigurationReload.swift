/// The outcome of re-reading the configuration on SIGHUP.
public struct ConfigurationReload: Sendable, Hashable {
    /// What the daemon uses from now on: the new values, except the settings that need a
    /// restart, which keep their current values.
    public var configuration: DaemonConfiguration
    /// Changed settings now in effect (for the next run where one is recording), by key path.
    public var appliedLive: [String]
    /// Changed settings that take effect only after `systemctl restart activetaskd`.
    public var needsRestart: [String]

    /// Compares `read` with `current`.
    public init(current: DaemonConfiguration, read: DaemonConfiguration) {
        let before = current.settingValues
        let after = read.settingValues
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        needsRestart = changed.filter { ConfigurationSchema.restartOnly.contains($0) }
        appliedLive = changed.filter { !ConfigurationSchema.restartOnly.contains($0) }
        var effective = read
        effective.socketPath = current.socketPath
        effective.dataDirectory = current.dataDirectory
        configuration = effective
    }

    /// One sentence for the log.
    public var summary: String {
        var parts: [String] = []
        if appliedLive.isEmpty && needsRestart.isEmpty { return "The configuration is unchanged." }
        if !appliedLive.isEmpty { parts.append("Applied \(appliedLive.joined(separator: ", ")) (a run already recording keeps its settings).") }
        if !needsRestart.isEmpty { parts.append("\(needsRestart.joined(separator: ", ")) changed but take effect only after a restart (systemctl restart activetaskd).") }
        return parts.joined(separator: " ")
    }
}
