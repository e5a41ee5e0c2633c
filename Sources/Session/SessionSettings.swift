public import AsyncActions
import Foundation
public import Logging
public import TaskModel
public import TaskNavigation

/// Makes the controller of one async action configuration (the daemon passes its controller
/// registry's `makeController`).
public typealias AsyncActionControllerFactory =
    @Sendable (_ configuration: any AsyncActionConfiguration, _ output: RecorderOutput) -> any AsyncActionController

/// What a session needs from its host: controllers, permission policy, voice, quality checks,
/// logging.
public struct SessionSettings: Sendable {
    public var makeController: AsyncActionControllerFactory
    public var permissionPolicy: PermissionPolicy
    /// Seconds a permission question stays open before it counts as denied (SageResearch: 120).
    public var permissionTimeout: Double
    /// Speaks the steps' prompts; nil runs silently (prompts are still reported as warnings).
    public var voice: (any SessionVoice)?
    /// Full-instructions mode (the default) shows `fullInstructionsOnly` steps.
    public var showsFullInstructions: Bool
    /// The participant's cohorts for `beforeCohortRules`/`afterCohortRules`.
    public var cohorts: Set<String>
    /// Events a subscriber may fall behind before it loses the oldest.
    public var eventCapacity: Int
    /// Judges a run that finished (not saved or discarded) and writes its report (docs/quality.md);
    /// nil checks nothing (no `qualityChecked` event).
    public var quality: (any RunQualityChecking)?
    /// Orders the hands of a `both` hand selection (docs/task-format.md, "Hands"): the system's
    /// randomness by default, a seeded coin in tests.
    public var handCoin: HandCoin
    public var logger: Logger

    public init(
        makeController: @escaping AsyncActionControllerFactory, permissionPolicy: PermissionPolicy = PermissionPolicy(),
        permissionTimeout: Double = 120, voice: (any SessionVoice)? = nil, showsFullInstructions: Bool = true,
        cohorts: Set<String> = [], eventCapacity: Int = 1024, quality: (any RunQualityChecking)? = nil,
        handCoin: HandCoin = .system(), logger: Logger
    ) {
        self.makeController = makeController
        self.permissionPolicy = permissionPolicy
        self.permissionTimeout = permissionTimeout
        self.voice = voice
        self.showsFullInstructions = showsFullInstructions
        self.cohorts = cohorts
        self.eventCapacity = eventCapacity
        self.quality = quality
        self.handCoin = handCoin
        self.logger = logger
    }
}
