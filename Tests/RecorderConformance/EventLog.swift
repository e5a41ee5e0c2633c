// Compiled only where Swift Testing is (not in the static install build): see
// AsyncActionConformance.swift.
#if canImport(Testing)
public import AsyncActions
import Foundation
public import TaskModel
import TestSupport

/// Collects a controller's events as they come, for the conformance checks.
public actor EventLog {
    public private(set) var events: [AsyncActionEvent] = []
    private var finished = false

    /// How long a wait lasts by default: a wait ends as soon as what it waits for happens, so
    /// this only bounds a failure. Generous, and widened under a sanitizer (TestTiming): with
    /// every suite running on two cores, the reader's turn can come seconds late.
    public static let defaultTimeout: Duration = TestTiming.tolerance(.seconds(30))

    /// Starts reading `stream`; the reading ends with the stream.
    public init(_ stream: AsyncStream<AsyncActionEvent>) {
        Task { await self.read(stream) }
    }

    private func read(_ stream: AsyncStream<AsyncActionEvent>) async {
        for await event in stream { events.append(event) }
        finished = true
    }

    /// The statuses published, in order.
    public var statuses: [AsyncActionStatus] { events.compactMap(\.status) }

    /// The error results published, in order.
    public var failures: [ErrorResult] {
        events.compactMap { event in
            if case .failed(let result) = event.kind { return result }
            return nil
        }
    }

    /// Waits until `status` was published or `timeout` passed; returns whether it was.
    public func waitFor(_ status: AsyncActionStatus, timeout: Duration = EventLog.defaultTimeout) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if statuses.contains(status) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return statuses.contains(status)
    }

    /// Waits until the stream finished (after a final status) or `timeout` passed.
    public func waitUntilFinished(timeout: Duration = EventLog.defaultTimeout) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end && !finished { try? await Task.sleep(for: .milliseconds(10)) }
        return finished
    }
}
#endif
