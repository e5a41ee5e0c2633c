public import Foundation
public import Session
public import TaskModel

/// Everything `activetaskd` reads at start from its configuration file, environment variables
/// (`ACTIVETASK_…`) and command-line options (`--…`), validated. Read it with
/// `DaemonConfigurationLoader`; the keys and their defaults are in docs/configuration.md and
/// config/activetaskd.json.
public struct DaemonConfiguration: Sendable, Hashable {
    /// `socket`: the control socket the daemon binds when systemd did not pass one.
    public var socketPath: String
    /// `dataDir`: where runs (`runs/<uuid>/`) and archives are kept.
    public var dataDirectory: String
    /// `taskDirectory`: where task files named by path or `taskInfo` steps are found.
    public var taskDirectory: String
    /// `iioURI`: the libiio context (`local:`, `ip:HOST`, `usb:…`, `serial:…`) or `sim:`.
    public var iioURI: String
    /// `captureDevice`: the ALSA PCM the microphone recorder captures from.
    public var captureDevice: String
    /// `playbackDevice`: the ALSA PCM spoken instructions play on.
    public var playbackDevice: String
    /// `voice`: espeak-ng voice, rate and recorded clips.
    public var voice: VoiceSettings
    /// `permissions`: the decision per permission name (`motion`, `microphone`, …); names not
    /// listed are `ask`.
    public var permissions: [String: PermissionDecision]
    /// `typeAliases`: custom task, step and async action type names → built-in ones.
    public var typeAliases: TypeAliasTable
    /// `retention`: which old runs are deleted.
    public var retention: RetentionPolicy
    /// `motion`: per-device properties of the IMU the motion recorder's fusion compensates.
    public var motion: MotionSettings
    /// `syncInterval`: how often recorder files are fsynced, bounding what a power cut loses.
    public var syncInterval: Duration
    /// `realTimePriority`: the SCHED_FIFO priority the voice playback thread asks for (the
    /// microphone capture thread asks for one less); 0 asks for none. A thread gets it only
    /// where the service may (docs/service.md, "Real-time scheduling").
    public var realTimePriority: Int
    /// `quality`: the quality thresholds object as JSON (sorted keys), passed through unread to
    /// the quality checks; nil for their defaults.
    public var qualityThresholds: Data?
    /// `metricsDirectory`: where `activetaskd.prom` is written for node_exporter's textfile
    /// collector (docs/fleet.md); nothing is written while it does not exist; empty for none.
    public var metricsDirectory: String

    /// The defaults (docs/configuration.md): what the daemon uses with no file, variable or option.
    public static let defaults = DaemonConfiguration(
        socketPath: "/run/activetask/control.sock",
        dataDirectory: "/var/lib/activetask",
        taskDirectory: "/var/lib/activetask/tasks",
        iioURI: "local:",
        captureDevice: "default",
        playbackDevice: "default",
        voice: VoiceSettings(),
        permissions: Dictionary(uniqueKeysWithValues: knownPermissions.map { ($0, .ask) }),
        typeAliases: TypeAliasTable(),
        retention: RetentionPolicy(),
        motion: MotionSettings(),
        syncInterval: .seconds(1),
        realTimePriority: 10,
        qualityThresholds: nil,
        metricsDirectory: "/var/lib/prometheus/node-exporter"
    )

    /// SageResearch's permission names, which can be set from the environment and command line
    /// as well as the file.
    public static let knownPermissions: [String] = [
        PermissionType.motion, .microphone, .camera, .photoLibrary, .locationWhenInUse, .location, .notifications,
    ].map(\.rawValue)

    /// The decision for `permission`: as configured, else `ask`.
    public func policy(for permission: PermissionType) -> PermissionDecision {
        permissions[permission.rawValue] ?? .ask
    }

    /// The `permissions` table as the session's policy: names not listed are `ask`.
    public var permissionPolicy: PermissionPolicy {
        PermissionPolicy(Dictionary(uniqueKeysWithValues: permissions.map { (PermissionType(rawValue: $0.key), $0.value) }), default: .ask)
    }

    public init(
        socketPath: String, dataDirectory: String, taskDirectory: String, iioURI: String,
        captureDevice: String, playbackDevice: String, voice: VoiceSettings,
        permissions: [String: PermissionDecision], typeAliases: TypeAliasTable, retention: RetentionPolicy,
        motion: MotionSettings = MotionSettings(), syncInterval: Duration, realTimePriority: Int = 10, qualityThresholds: Data?,
        metricsDirectory: String = "/var/lib/prometheus/node-exporter"
    ) {
        self.metricsDirectory = metricsDirectory
        self.realTimePriority = realTimePriority
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.taskDirectory = taskDirectory
        self.iioURI = iioURI
        self.captureDevice = captureDevice
        self.playbackDevice = playbackDevice
        self.voice = voice
        self.permissions = permissions
        self.typeAliases = typeAliases
        self.retention = retention
        self.motion = motion
        self.syncInterval = syncInterval
        self.qualityThresholds = qualityThresholds
    }
}
