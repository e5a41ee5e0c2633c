public import AsyncActions
public import Foundation
public import Logging
public import Quality
public import Session
public import TaskModel
public import Voice

/// What the daemon runs tasks with, taken from its configuration (docs/configuration.md).
public struct DaemonSettings: Sendable {
    /// `<data-dir>`: runs live in `<data-dir>/runs/`.
    public var dataDirectory: URL
    /// Where `task.load` finds a task named by a relative path.
    public var taskDirectory: URL
    /// The devices `daemon.info` and `devices.list` name; the recorders' own settings are in
    /// `controllers`.
    public var devices: DaemonDevices
    /// How prompts sound; nil runs without voice (prompts are then only reported).
    public var voice: VoiceConfiguration?
    public var permissionPolicy: PermissionPolicy
    /// Type aliases and embedder registrations used to read tasks.
    public var typeRegistry: TypeRegistry
    /// The async-action controllers by configuration type.
    public var controllers: AsyncActionControllerRegistry
    /// Old runs pruned at start and after each run; nil keeps every run.
    public var retention: RetentionPolicy?
    /// The limits of the quality checks written at the end of each run (docs/quality.md).
    public var qualityThresholds: QualityThresholds
    /// Where `activetaskd.prom` is written for node_exporter's textfile collector
    /// (docs/fleet.md); nil writes no metrics. Nothing is written while the directory is missing.
    public var metricsDirectory: String?
    public var logger: Logger

    public init(
        dataDirectory: URL, taskDirectory: URL, devices: DaemonDevices, voice: VoiceConfiguration?,
        permissionPolicy: PermissionPolicy, typeRegistry: TypeRegistry, controllers: AsyncActionControllerRegistry,
        retention: RetentionPolicy?, qualityThresholds: QualityThresholds = QualityThresholds(),
        metricsDirectory: String? = nil, logger: Logger
    ) {
        self.metricsDirectory = metricsDirectory
        self.dataDirectory = dataDirectory
        self.taskDirectory = taskDirectory
        self.devices = devices
        self.voice = voice
        self.permissionPolicy = permissionPolicy
        self.typeRegistry = typeRegistry
        self.controllers = controllers
        self.retention = retention
        self.qualityThresholds = qualityThresholds
        self.logger = logger
    }
}

/// What the daemon is doing, for systemd's STATUS= line.
public enum DaemonActivity: Sendable, Hashable {
    case idle
    case recording(task: String, stepPath: String)
    /// Shutting down: the run going on is being saved as interrupted.
    case stopping
}
