import Clocks
public import Foundation
public import TaskModel

/// The controller every built-in recorder is: the five commands of `AsyncActionController`
/// run through the shared `AsyncActionLifecycle`, the device work done by a `RecorderBackend`.
/// The actor carries out the lifecycle's actions and re-checks the lifecycle after every
/// `await` by feeding it what the await returned.
public actor RecorderController<Backend: RecorderBackend>: AsyncActionController {
    public nonisolated let configuration: any AsyncActionConfiguration
    public nonisolated let events: AsyncStream<AsyncActionEvent>
    /// The device half.
    public nonisolated let backend: Backend
    private let publisher: AsyncActionStatusPublisher
    private var lifecycle: AsyncActionLifecycle
    private var errorResult: ErrorResult?
    private var results: [any ResultData] = []
    private var monitor: Task<Void, Never>?
    private let createdAt = Date()

    public init(configuration: any AsyncActionConfiguration, backend: Backend) {
        self.configuration = configuration
        self.backend = backend
        publisher = AsyncActionStatusPublisher(identifier: configuration.identifier)
        events = publisher.events
        lifecycle = AsyncActionLifecycle(identifier: configuration.identifier)
    }

    deinit {
        // A controller dropped while recording does not leave its failure watch behind.
        monitor?.cancel()
    }

    public var status: AsyncActionStatus { publisher.status }

    public func requestPermission() async throws {
        if let rejection = await run(.requestPermission).rejection { throw rejection }
    }

    public func start(stepPath: String) async throws {
        if let rejection = await run(.start(stepPath: stepPath)).rejection { throw rejection }
    }

    public func moveTo(stepPath: String) async {
        guard lifecycle.status == .running else { return }
        do {
            try await backend.moveTo(stepPath: stepPath, uptime: RecordingClock.uptime())
        } catch {
            _ = await run(.failure(error))
        }
    }

    public func stop() async throws -> [any ResultData] {
        let outcome = await run(.stop)
        if let rejection = outcome.rejection { throw rejection }
        switch outcome.stop {
        case .results: return results
        case .errorResult: return lifecycle.failure.map { [errorResult(for: $0)] } ?? []
        case .nothing, nil: return []
        }
    }

    public func cancel() async {
        _ = await run(.cancel)
    }

    /// The error result, once the controller has failed.
    public var failureResult: ErrorResult? { errorResult }

    // MARK: Carrying out the lifecycle

    private struct Outcome {
        var rejection: AsyncActionError?
        var stop: AsyncActionLifecycle.StopOutcome?
    }

    /// Feeds `event` and carries out the actions, feeding back what each operation returns.
    private func run(_ event: AsyncActionLifecycle.Event) async -> Outcome {
        var outcome = Outcome()
        var pending = lifecycle.handle(event)
        while !pending.isEmpty {
            let action = pending.removeFirst()
            if let next = await perform(action, into: &outcome) {
                pending += lifecycle.handle(next)
            }
        }
        return outcome
    }

    private func perform(_ action: AsyncActionLifecycle.Action, into outcome: inout Outcome) async -> AsyncActionLifecycle.Event? {
        switch action {
        case .publish(let status):
            publisher.move(to: status)
            if status == .running { startMonitor() }
            return nil
        case .publishFailure(let error):
            publisher.fail(with: errorResult(for: error))
            return nil
        case .openDevice:
            return await completion(.permissionGranted) { () async throws(AsyncActionError) in try await backend.open() }
        case .startRecording(let stepPath):
            let events = RecorderEvents(publisher)
            return await completion(.started) { () async throws(AsyncActionError) in try await backend.start(stepPath: stepPath, events: events) }
        case .stopRecording:
            monitor?.cancel()
            return await completion(.stopped) { () async throws(AsyncActionError) in try await backend.stop() }
        case .processResults:
            return await completion(.resultsReady) { () async throws(AsyncActionError) in results = try await backend.results() }
        case .halt(let deleteOutput):
            monitor?.cancel()
            monitor = nil
            await backend.halt(deleteOutput: deleteOutput)
            return nil
        case .finishStop(let stop):
            outcome.stop = stop
            return nil
        case .reject(let error):
            outcome.rejection = error
            return nil
        }
    }

    /// The one `<identifier>_error` result of the failure, built when first asked for.
    private func errorResult(for error: AsyncActionError) -> ErrorResult {
        if let errorResult { return errorResult }
        let result = ErrorResult(
            identifier: "\(configuration.identifier)_error", startDate: createdAt, endDate: Date(),
            errorDescription: error.message, errorDomain: AsyncActionError.domain, errorCode: error.code.rawValue)
        errorResult = result
        return result
    }

    /// Runs an operation and returns the event its end means.
    private func completion(
        _ success: AsyncActionLifecycle.Event, _ operation: () async throws(AsyncActionError) -> Void
    ) async -> AsyncActionLifecycle.Event {
        do {
            try await operation()
            return success
        } catch where error.code == .timedOut {
            return .deadlinePassed(error)
        } catch {
            return .operationFailed(error)
        }
    }

    /// Watches the running recording for a failure of its own; cancelled when the recording
    /// stops or halts.
    private func startMonitor() {
        let backend = backend
        monitor = Task { [weak self] in
            guard let failure = await backend.waitForFailure(), !Task.isCancelled else { return }
            await self?.recordingFailed(failure)
        }
    }

    private func recordingFailed(_ error: AsyncActionError) async {
        _ = await run(.failure(error))
    }
}
