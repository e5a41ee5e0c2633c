public import TaskModel

/// A controller that runs one async action (a recorder) through the SageResearch lifecycle.
///
/// The task runner drives it: `requestPermission()` when the owning task or section is entered,
/// `start(stepPath:)` when the start step begins (for timed steps, when the step timer starts),
/// `moveTo(stepPath:)` on every step change, and `stop()` when the stop step or the owner ends.
/// `cancel()` may come at any time. The built-in controllers are all `RecorderController`, which
/// runs the one `AsyncActionLifecycle` (docs/async-actions.md) and publishes every status change,
/// failure, warning and progress figure on `events`.
public protocol AsyncActionController: Actor {
    /// The configuration the controller was created from.
    nonisolated var configuration: any AsyncActionConfiguration { get }

    /// The current status; it only moves forward.
    var status: AsyncActionStatus { get }

    /// Status changes, failures, warnings and progress, stamped and in order; finishes after a
    /// final status.
    nonisolated var events: AsyncStream<AsyncActionEvent> { get }

    /// Checks that the device can be opened; throws `AsyncActionError` when it cannot (or when it
    /// does not answer within the open deadline). Moves idle → requestingPermission →
    /// permissionGranted (or failed, with one `<identifier>_error` result).
    func requestPermission() async throws

    /// Starts recording; `stepPath` is the path of the step that started it.
    /// Moves permissionGranted → starting → running.
    func start(stepPath: String) async throws

    /// Records a step change (a marker in the sample file where the format has markers).
    func moveTo(stepPath: String) async

    /// Stops recording, closes its files and returns the results. Moves running → waitingToStop
    /// → processingResults → stopping → finished. After a failure (also one that arrives during
    /// the stop) it returns the one `<identifier>_error` result; after a cancel, nothing.
    func stop() async throws -> [any ResultData]

    /// Cancels the action in any status: stops recording, deletes what it wrote, and moves to
    /// cancelled (a finished or failed controller keeps its status). Never waits for a hanging
    /// device.
    func cancel() async
}
