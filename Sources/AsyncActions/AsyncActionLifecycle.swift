/// The lifecycle every recorder controller shares, as a plain value: it takes what happened
/// (a command, an operation finishing, a failure) and returns the actions for its caller, the
/// controller actor, to carry out. No I/O, no clock; tested table by table on its own.
///
/// Status moves as SageResearch's: idle → requestingPermission → permissionGranted → starting →
/// running → waitingToStop → processingResults → stopping → finished, or to cancelled or
/// failed from any non-final status (docs/async-actions.md).
///
/// Rules it keeps:
/// - One device operation at a time (open, start, stop, process). A cancel or failure that
///   arrives while one is in flight takes effect at once in the status, and the device is
///   halted when the operation returns, never concurrently with it.
/// - The first failure after permission was asked publishes exactly one error result and
///   moves to failed; later failures are ignored. A failed recording never yields file results:
///   a `stop()` in flight or after the failure returns the error result.
/// - `cancel()` is valid in every status: it deletes what was written, and is a no-op once
///   finished or cancelled.
public struct AsyncActionLifecycle: Sendable, Hashable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The `requestPermission()` command.
        case requestPermission
        /// The permission check (opening the device) succeeded.
        case permissionGranted
        /// The `start(stepPath:)` command.
        case start(stepPath: String)
        /// The device started and the file is open.
        case started
        /// The `stop()` command.
        case stop
        /// The device stopped and the files are closed.
        case stopped
        /// The results are built.
        case resultsReady
        /// The operation in flight failed (permission denied when it was the permission check).
        case operationFailed(AsyncActionError)
        /// The operation in flight did not finish within its deadline.
        case deadlinePassed(AsyncActionError)
        /// The recording failed by itself (device lost, disk full).
        case failure(AsyncActionError)
        /// The `cancel()` command.
        case cancel
    }

    /// What `stop()` hands back.
    public enum StopOutcome: Sendable, Hashable {
        /// The file results built by the last `processResults`.
        case results
        /// The one error result of the failure.
        case errorResult
        /// Nothing: the action was cancelled.
        case nothing
    }

    /// What the controller must do, in order.
    public enum Action: Sendable, Hashable {
        /// Publish the status change.
        case publish(AsyncActionStatus)
        /// Build and publish the error result of `error`, then the status `failed`.
        case publishFailure(AsyncActionError)
        /// Open the device and check it can record (the permission check); report
        /// `permissionGranted` or `operationFailed`.
        case openDevice
        /// Create the files, write the first marker and start the device; report `started`.
        case startRecording(stepPath: String)
        /// Stop the device and close the files; report `stopped`.
        case stopRecording
        /// Build the results; report `resultsReady`.
        case processResults
        /// Stop the device if it runs and close the files as they are; delete what was written
        /// when `deleteOutput`.
        case halt(deleteOutput: Bool)
        /// The pending `stop()` returns this.
        case finishStop(StopOutcome)
        /// The command fails with this error.
        case reject(AsyncActionError)
    }

    private enum Operation: Sendable, Hashable {
        case open, start, stop, process
    }

    /// The current status.
    public private(set) var status: AsyncActionStatus = .idle
    /// The failure, once failed.
    public private(set) var failure: AsyncActionError?
    /// The identifier used in rejection messages.
    public let identifier: String
    private var inFlight: Operation?
    /// Whether the device was opened and not yet halted.
    private var deviceOpen = false
    /// A halt owed once the operation in flight returns (a cancel or failure came meanwhile).
    private var pendingHalt: Bool?
    /// A failure published once the owed halt has closed the files.
    private var pendingFailure: AsyncActionError?

    public init(identifier: String) {
        self.identifier = identifier
    }

    /// Takes `event` and returns the actions to carry out, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .requestPermission:
            guard status == .idle else {
                return [.reject(invalidState("Permission was already requested for \(identifier) (it is \(status)); create a new controller to record again."))]
            }
            status = .requestingPermission
            inFlight = .open
            return [.publish(.requestingPermission), .openDevice]

        case .permissionGranted:
            guard inFlight == .open else { return [] }
            inFlight = nil
            deviceOpen = true
            if status == .requestingPermission {
                status = .permissionGranted
                return [.publish(.permissionGranted)]
            }
            return owedHalt()

        case .start(let stepPath):
            guard status == .permissionGranted, inFlight == nil else {
                if let failure { return [.reject(failure)] }
                return [.reject(invalidState("\(identifier) can only start after permission was granted (it is \(status))."))]
            }
            status = .starting
            inFlight = .start
            return [.publish(.starting), .startRecording(stepPath: stepPath)]

        case .started:
            guard inFlight == .start else { return [] }
            inFlight = nil
            if status == .starting {
                status = .running
                return [.publish(.running)]
            }
            return owedHalt() + [.reject(failure ?? invalidState("\(identifier) was cancelled while starting."))]

        case .stop:
            if status == .failed { return [.finishStop(.errorResult)] }
            if status == .cancelled { return [.finishStop(.nothing)] }
            guard status == .running, inFlight == nil else {
                return [.reject(invalidState("\(identifier) is not recording (it is \(status)); nothing to stop."))]
            }
            status = .waitingToStop
            inFlight = .stop
            return [.publish(.waitingToStop), .stopRecording]

        case .stopped:
            guard inFlight == .stop else { return [] }
            inFlight = nil
            if status == .waitingToStop {
                status = .processingResults
                inFlight = .process
                return [.publish(.processingResults), .processResults]
            }
            return owedHalt() + [.finishStop(status == .failed ? .errorResult : .nothing)]

        case .resultsReady:
            guard inFlight == .process else { return [] }
            inFlight = nil
            deviceOpen = false
            if status == .processingResults {
                status = .finished
                return [.publish(.stopping), .publish(.finished), .finishStop(.results)]
            }
            return owedHalt() + [.finishStop(status == .failed ? .errorResult : .nothing)]

        case .operationFailed(let error), .deadlinePassed(let error):
            guard let operation = inFlight else { return [] }
            inFlight = nil
            var actions = owedHalt()
            actions += fail(error, halting: operation != .open || deviceOpen)
            switch operation {
            case .open, .start:
                actions.append(.reject(failure ?? error))
            case .stop, .process:
                actions.append(.finishStop(status == .failed ? .errorResult : .nothing))
            }
            return actions

        case .failure(let error):
            return fail(error, halting: true)

        case .cancel:
            switch status {
            case .finished, .cancelled:
                return []
            case .failed:
                // What the failed recording left on disk goes too.
                return halt(deleteOutput: true)
            case .idle:
                status = .cancelled
                return [.publish(.cancelled)]
            default:
                status = .cancelled
                return [.publish(.cancelled)] + halt(deleteOutput: true)
            }
        }
    }

    /// Moves to failed with `error` unless already final; halts the device and then publishes
    /// the failure, so that whoever sees `failed` finds the files closed (now, or when the
    /// operation in flight returns).
    private mutating func fail(_ error: AsyncActionError, halting: Bool) -> [Action] {
        guard !status.isFinal else { return [] }
        status = .failed
        failure = error
        guard halting else { return [.publishFailure(error)] }
        if inFlight != nil {
            pendingFailure = error
            return halt(deleteOutput: false)
        }
        return halt(deleteOutput: false) + [.publishFailure(error)]
    }

    /// Halts now, or owes the halt to the operation in flight.
    private mutating func halt(deleteOutput: Bool) -> [Action] {
        if inFlight != nil {
            pendingHalt = (pendingHalt ?? false) || deleteOutput
            return []
        }
        deviceOpen = false
        return [.halt(deleteOutput: deleteOutput)]
    }

    /// The halt (and failure publication) a cancel or failure owed while an operation was in
    /// flight.
    private mutating func owedHalt() -> [Action] {
        var actions: [Action] = []
        if let deleteOutput = pendingHalt {
            pendingHalt = nil
            deviceOpen = false
            actions.append(.halt(deleteOutput: deleteOutput))
        }
        if let failure = pendingFailure {
            pendingFailure = nil
            actions.append(.publishFailure(failure))
        }
        return actions
    }

    private func invalidState(_ message: String) -> AsyncActionError {
        AsyncActionError(.invalidState, message)
    }
}
