public import TaskModel

/// The device-specific half of a recorder: what the shared `RecorderController` calls to open,
/// start, stop and halt one device. The controller calls one method at a time and never
/// concurrently with another, except `waitForFailure()`, which it awaits meanwhile.
///
/// Every blocking call inside (libiio, ALSA, fsync) runs on a dedicated thread
/// (BlockingCalls), with the deadlines of the recorder's own settings; a missed deadline is
/// thrown as `AsyncActionError` with code `.timedOut`.
public protocol RecorderBackend: AnyObject, Sendable {
    /// Opens the device and checks it can record what the configuration asks (the permission
    /// check).
    func open() async throws(AsyncActionError)

    /// Creates the files, writes the first step marker and starts the device. Warnings and
    /// progress go to `events`.
    func start(stepPath: String, events: RecorderEvents) async throws(AsyncActionError)

    /// Records a step change at CLOCK_BOOTTIME `uptime`.
    func moveTo(stepPath: String, uptime: Double) async throws(AsyncActionError)

    /// Stops the device and closes the files (a failure that arrived meanwhile is thrown).
    func stop() async throws(AsyncActionError)

    /// Builds the results of the closed files.
    func results() async throws(AsyncActionError) -> [any ResultData]

    /// Stops the device if it runs and closes what is open as it is; deletes every file the
    /// recording wrote when `deleteOutput`. Safe to call more than once, in any state.
    func halt(deleteOutput: Bool) async

    /// Waits until the running recording fails by itself and returns why; nil when it ended
    /// without failing or the waiting task was cancelled.
    func waitForFailure() async -> AsyncActionError?
}

/// What a running recorder may publish from its own threads: warnings and live figures, never
/// status changes.
public struct RecorderEvents: Sendable {
    private let publisher: AsyncActionStatusPublisher

    public init(_ publisher: AsyncActionStatusPublisher) {
        self.publisher = publisher
    }

    /// Publishes a non-fatal fact (a gap, an overrun).
    public func warn(_ message: String) {
        publisher.warn(message)
    }

    /// Publishes a live figure.
    public func progress(_ progress: AsyncActionProgress) {
        publisher.progress(progress)
    }
}
