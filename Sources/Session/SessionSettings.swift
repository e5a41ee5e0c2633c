public import AsyncActions
public import Foundation
public import Logging
public import Quality
public import TaskModel
public import Voice

/// Makes the controller of one async action configuration (the daemon passes its controller
/// registry's `makeController`).
public typealias AsyncActionControllerFactory =
    @Sendable (_ configuration: any AsyncActionConfiguration, _ output: RecorderOutput) -> any AsyncActionController

/// What a session needs from its host: controllers, permission policy, voice, logging.
public struct SessionSettings: Sendable {
    public var makeController: AsyncActionControllerFactory
    public var permissionPolicy: PermissionPolicy
    /// Seconds a permission question stays open before it counts as denied (SageResearch: 120).
    public var permissionTimeout: Double
    /// Speaks the steps' prompts; nil runs silently (prompts are still reported as warnings).
    public var voice: VoicePrompter?
    /// Full-instructions mode (the default) shows `fullInstructionsOnly` steps.
    public var showsFullInstructions: Bool
    /// The participant's cohorts for `beforeCohortRules`/`afterCohortRules`.
    public var cohorts: Set<String>
    /// Events a subscriber may fall behind before it loses the oldest.
    public var eventCapacity: Int
    /// The limits of the quality checks run when a run ends (docs/quality.md).
    public var qualityThresholds: QualityThresholds
    public var logger: Logger

    public init(
        makeController: @escaping AsyncActionControllerFactory, permissionPolicy: PermissionPolicy = PermissionPolicy(),
        permissionTimeout: Double = 120, voice: VoicePrompter? = nil, showsFullInstructions: Bool = true,
        cohorts: Set<String> = [], eventCapacity: Int = 1024, qualityThresholds: QualityThresholds = QualityThresholds(),
        logger: Logger
    ) {
        self.makeController = makeController
        self.permissionPolicy = permissionPolicy
        self.permissionTimeout = permissionTimeout
        self.voice = voice
        self.showsFullInstructions = showsFullInstructions
        self.cohorts = cohorts
        self.eventCapacity = eventCapacity
        self.qualityThresholds = qualityThresholds
        self.logger = logger
    }
}
