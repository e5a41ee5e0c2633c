public import TaskModel

/// A controller that runs one async action (a recorder) through the SageResearch lifecycle.
///
/// The task runner drives it: `requestPermission()` when the owning task or section is entered,
/// `start(stepPath:)` when the start step begins (for timed steps, when the step timer starts),
/// `moveTo(stepPath:)` on every step change, and `stop()` when the stop step or the owner ends.
/// `cancel()` may come at any time. Implementations are actors with an explicit state enum and
/// publish every status change and failure on `events`.
public protocol AsyncActionController: Actor {
    /// The configuration the controller was created from.
    nonisolated var configuration: any AsyncActionConfiguration { get }

    /// The current status; it only moves forward.
    var status: AsyncActionStatus { get }

    /// Status changes and failures, in order; finishes after a final status.
    nonisolated var events: AsyncStream<AsyncActionEvent> { get }

    /// Checks that the device can be opened; throws `AsyncActionError` when it cannot.
    /// Moves idle → requestingPermission → permissionGranted (or failed).
    func requestPermission() async throws

    /// Starts recording; `stepPath` is the path of the step that started it.
    /// Moves permissionGranted → starting → running.
    func start(stepPath: String) async throws

    /// Records a step change (a marker in the sample file where the format has markers).
    func moveTo(stepPath: String) async

    /// Stops recording, closes its files and returns the results (file results; an error result
    /// when the recording failed after starting). Moves running → stopping → finished.
    func stop() async throws -> [any ResultData]

    /// Cancels the action: stops recording, deletes what it wrote, and moves to cancelled.
    func cancel() async
}
