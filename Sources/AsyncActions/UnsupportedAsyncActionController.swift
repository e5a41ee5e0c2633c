public import TaskModel

/// The controller of an async action this device cannot run (`distance` without location, a
/// type nothing is registered for): its permission fails with `unsupported` and the
/// `<identifier>_error` result says why, so the task goes on without it.
public typealias UnsupportedAsyncActionController = RecorderController<UnsupportedBackend>

extension RecorderController where Backend == UnsupportedBackend {
    /// A controller whose permission fails with `reason`.
    public init(configuration: any AsyncActionConfiguration, reason: String) {
        self.init(configuration: configuration, backend: UnsupportedBackend(reason: reason))
    }
}

/// A device that is never there: the permission check fails with `unsupported`.
public final class UnsupportedBackend: RecorderBackend {
    /// The sentence the error result carries.
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public func open() async throws(AsyncActionError) {
        throw AsyncActionError(.unsupported, reason)
    }

    public func start(stepPath: String, events: RecorderEvents) async throws(AsyncActionError) {
        throw AsyncActionError(.unsupported, reason)
    }

    public func moveTo(stepPath: String, uptime: Double) async throws(AsyncActionError) {}
    public func stop() async throws(AsyncActionError) {}
    public func results() async throws(AsyncActionError) -> [any ResultData] { [] }
    public func halt(deleteOutput: Bool) async {}
    public func waitForFailure() async -> AsyncActionError? { nil }
}
