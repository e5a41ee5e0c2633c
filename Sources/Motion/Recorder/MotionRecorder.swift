import Clocks
public import AsyncActions
import Foundation
import Logging
public import SampleFiles
import SystemPackage
public import TaskModel

/// The `motion` async action: records raw motion sensors (and, with a fusion stage, device
/// motion) from a motion source to a SageResearch motion file.
///
/// Lifecycle (DESIGN.md 3): `requestPermission()` opens the source and checks that every
/// requested type can be produced; `start(stepPath:)` creates the file, writes the first step
/// marker and starts the source's reader threads; `moveTo(stepPath:)` writes a marker;
/// `stop()` stops the readers, closes the file and returns its `FileResult`. A device that
/// fails or disappears fails only this controller, with an `<identifier>_error` result.
public actor MotionRecorder: AsyncActionController {
    private enum State {
        case idle
        case ready(any MotionSource)
        case running(Recording)
        case stopping
        case ended
        case failed(ErrorResult)
    }

    private struct Recording {
        var source: any MotionSource
        var pipeline: MotionPipeline
        var fileURL: URL
        var startUptime: Double
        var startDate: Date
        var monitor: Task<Void, Never>
    }

    public nonisolated let configuration: any AsyncActionConfiguration
    /// The configuration as a motion configuration.
    public nonisolated let motionConfiguration: MotionRecorderConfiguration
    public nonisolated let events: AsyncStream<AsyncActionEvent>
    private let eventContinuation: AsyncStream<AsyncActionEvent>.Continuation
    private let output: RecorderOutput
    private let sourceURI: String
    private let fusion: (any MotionFusionFactory)?
    private let syncPolicy: SyncPolicy
    private let logger: Logger
    private let requestedAt = Date()
    public private(set) var status: AsyncActionStatus = .idle
    private var state: State = .idle

    /// - Parameters:
    ///   - sourceURI: `local:`, `ip:HOST` or `sim:` (see `MotionSources.open`).
    ///   - fusion: the sensor-fusion stage factory; nil when none is plugged in, in which case
    ///     configurations asking for device-motion types fail at permission time.
    public init(
        configuration: MotionRecorderConfiguration, output: RecorderOutput, sourceURI: String,
        fusion: (any MotionFusionFactory)? = nil, syncPolicy: SyncPolicy = .default
    ) {
        self.configuration = configuration
        motionConfiguration = configuration
        self.output = output
        self.sourceURI = sourceURI
        self.fusion = fusion
        self.syncPolicy = syncPolicy
        var logger = output.logger
        logger[metadataKey: "asyncAction"] = "\(configuration.identifier)"
        self.logger = logger
        (events, eventContinuation) = AsyncStream.makeStream(of: AsyncActionEvent.self)
    }

    // MARK: Lifecycle

    public func requestPermission() async throws {
        guard case .idle = state else {
            throw AsyncActionError(.invalidState, "Permission was already requested for \(configuration.identifier); create a new controller to record again.")
        }
        move(to: .requestingPermission)
        let types = Set(motionConfiguration.effectiveRecorderTypes)
        let fusedTypes = types.filter(\.isDeviceMotion)
        if !fusedTypes.isEmpty {
            guard let fusion else {
                throw fail(
                    AsyncActionError(
                        .unsupported,
                        "The motion recorder \(configuration.identifier) asks for \(fusedTypes.map(\.rawValue).sorted().joined(separator: ", ")), which come from sensor fusion, but no fusion stage is available; record accelerometer, gyro and magnetometer instead, or run a build with sensor fusion."))
            }
            let unsupported = fusedTypes.subtracting(fusion.producibleTypes)
            if !unsupported.isEmpty {
                throw fail(
                    AsyncActionError(
                        .unsupported,
                        "The sensor fusion stage cannot produce \(unsupported.map(\.rawValue).sorted().joined(separator: ", ")); remove them from recorderTypes of \(configuration.identifier)."))
            }
        }
        let source: any MotionSource
        do {
            source = try MotionSources.open(uri: sourceURI, logger: logger)
        } catch {
            throw fail(AsyncActionError(.permissionDenied, "The motion sensors at \(sourceURI) cannot be opened: \(error.message)"))
        }
        let missing = requiredSensors(for: types).subtracting(source.availableSensors)
        if !missing.isEmpty {
            throw fail(
                AsyncActionError(
                    .permissionDenied,
                    "The motion recorder \(configuration.identifier) needs \(missing.sorted().map(\.rawValue).joined(separator: ", ")), which \(sourceURI) does not have. Run activetaskctl sensors --iio-uri \(sourceURI) to see what it has."))
        }
        state = .ready(source)
        move(to: .permissionGranted)
    }

    public func start(stepPath: String) async throws {
        guard case .ready(let source) = state else {
            throw AsyncActionError(.invalidState, "The motion recorder \(configuration.identifier) can only start after permission was granted (it is \(status)).")
        }
        move(to: .starting)
        let types = Set(motionConfiguration.effectiveRecorderTypes)
        let csv = motionConfiguration.effectiveUsesCSVEncoding
        let fileURL: URL
        let writer: MotionRecordWriter
        let startUptime = RecordingClock.uptime()
        let startDate = RecordingClock.date(atUptime: startUptime)
        do {
            fileURL = try chooseFile(csv: csv)
            writer = try MotionRecordWriter(path: FilePath(fileURL.path), csv: csv, startUptime: startUptime, policy: syncPolicy)
        } catch {
            throw fail(AsyncActionError(.outputFailed, "The motion recorder \(configuration.identifier) could not create its file: \(error)"))
        }
        let frequency = motionConfiguration.effectiveFrequency
        let rawSensors = Set(types.compactMap(SensorKind.init(recorderType:)))
        let fusedTypes = types.filter(\.isDeviceMotion)
        let stage = fusedTypes.isEmpty ? nil : fusion?.makeStage(types: fusedTypes, frequency: frequency)
        let sensors = requiredSensors(for: types)
        let continuation = eventContinuation
        let identifier = configuration.identifier
        let pipeline = MotionPipeline(
            writer: writer, rawTypes: rawSensors,
            frequencies: Dictionary(uniqueKeysWithValues: sensors.map { ($0, frequency) }), fusion: stage,
            warn: { message in continuation.yield(.warning(identifier: identifier, message: message)) })
        do {
            try pipeline.mark(uptime: startUptime, stepPath: stepPath, timestampDate: Timestamp.string(from: startDate))
            let frequencies = try source.start(sensors: sensors, frequency: frequency, sink: pipeline)
            pipeline.setFrequencies(frequencies)
        } catch let error as MotionSourceError {
            pipeline.abandon()
            throw fail(AsyncActionError(.deviceFailed, error.message))
        } catch {
            pipeline.abandon()
            throw fail(AsyncActionError(.outputFailed, "The motion recorder \(configuration.identifier) could not write its file: \(error)"))
        }
        // Watches for a reader failure; ends when the pipeline closes.
        let monitor = Task { [weak self] in
            if let failure = await pipeline.waitForFailure() {
                await self?.recordingFailed(failure)
            }
        }
        state = .running(
            Recording(source: source, pipeline: pipeline, fileURL: fileURL, startUptime: startUptime, startDate: startDate, monitor: monitor))
        logger.info("Motion recording started", metadata: ["file": "\(fileURL.lastPathComponent)", "types": "\(types.map(\.rawValue).sorted())"])
        move(to: .running)
    }

    public func moveTo(stepPath: String) async {
        guard case .running(let recording) = state else { return }
        let uptime = RecordingClock.uptime()
        do {
            try recording.pipeline.mark(uptime: uptime, stepPath: stepPath, timestampDate: Timestamp.string(from: RecordingClock.date(atUptime: uptime)))
        } catch {
            await recordingFailed(.output(error))
        }
    }

    public func stop() async throws -> [any ResultData] {
        switch state {
        case .failed(let result):
            return [result]
        case .running(let recording):
            state = .stopping
            move(to: .stopping)
            await recording.source.stop()
            // Only stop() leaves .stopping; re-checked after the await all the same.
            guard case .stopping = state else {
                throw AsyncActionError(.invalidState, "The motion recorder \(configuration.identifier) changed status while stopping (it is \(status)).")
            }
            let notes: [String]
            do {
                notes = try recording.pipeline.close()
            } catch {
                let result = errorResult(AsyncActionError(.outputFailed, "The motion recorder \(configuration.identifier) could not finish its file: \(error)"))
                state = .failed(result)
                move(to: .failed)
                eventContinuation.yield(.failed(identifier: configuration.identifier, result: result))
                eventContinuation.finish()
                return [result]
            }
            recording.monitor.cancel()
            let endDate = Date()
            let result = FileResult(
                identifier: configuration.identifier, startDate: recording.startDate, endDate: endDate,
                relativePath: relativePath(of: recording.fileURL),
                contentType: motionConfiguration.effectiveUsesCSVEncoding ? "text/csv" : "application/json",
                startUptime: recording.startUptime, notes: notes)
            logger.info("Motion recording finished", metadata: ["records": "\(recording.pipeline.recordCount)", "notes": "\(notes.count)"])
            state = .ended
            move(to: .finished)
            return [result]
        default:
            throw AsyncActionError(.invalidState, "The motion recorder \(configuration.identifier) is not recording (it is \(status)); nothing to stop.")
        }
    }

    public func cancel() async {
        switch state {
        case .running(let recording):
            state = .ended
            move(to: .cancelled)
            await recording.source.stop()
            recording.pipeline.abandon()
            recording.monitor.cancel()
            try? FileManager.default.removeItem(at: recording.fileURL)
        case .idle, .ready:
            state = .ended
            move(to: .cancelled)
        case .stopping, .ended, .failed:
            break
        }
    }

    /// The notes of the running recording so far (gaps, derived times).
    public var currentNotes: [String] {
        if case .running(let recording) = state { return recording.pipeline.notes }
        return []
    }

    // MARK: Failure

    private func recordingFailed(_ failure: MotionPipeline.Failure) async {
        guard case .running(let recording) = state else { return }
        // What was recorded stays on disk as valid JSON for diagnosis; no file result is given.
        // Closed before the status says failed: a caller seeing it may stop() and exit at once,
        // while the source's readers are still being joined below. Samples still arriving are
        // dropped by the closed pipeline.
        recording.pipeline.abandon()
        let error: AsyncActionError
        switch failure {
        case .source(let sourceError): error = AsyncActionError(.deviceFailed, sourceError.message)
        case .output(let fileError): error = AsyncActionError(.outputFailed, fileError.description)
        }
        let result = errorResult(error)
        state = .failed(result)
        logger.error("Motion recording failed", metadata: ["error": "\(error.message)"])
        move(to: .failed)
        eventContinuation.yield(.failed(identifier: configuration.identifier, result: result))
        eventContinuation.finish()
        await recording.source.stop()
    }

    /// Moves to failed from permission or start, publishes the error result and returns the
    /// error to throw.
    private func fail(_ error: AsyncActionError) -> AsyncActionError {
        let result = errorResult(error)
        state = .failed(result)
        logger.error("Motion recorder failed", metadata: ["error": "\(error.message)"])
        move(to: .failed)
        eventContinuation.yield(.failed(identifier: configuration.identifier, result: result))
        eventContinuation.finish()
        return error
    }

    private func errorResult(_ error: AsyncActionError) -> ErrorResult {
        ErrorResult(
            identifier: "\(configuration.identifier)_error", startDate: requestedAt, endDate: Date(),
            errorDescription: error.message, errorDomain: AsyncActionError.domain, errorCode: error.code.rawValue)
    }

    // MARK: Helpers

    private func move(to next: AsyncActionStatus) {
        guard status.canMove(to: next) else { return }
        status = next
        eventContinuation.yield(.statusChanged(identifier: configuration.identifier, status: next))
        if next.isFinal && next != .failed { eventContinuation.finish() }
    }

    private func requiredSensors(for types: Set<MotionRecorderType>) -> Set<SensorKind> {
        var sensors = Set(types.compactMap(SensorKind.init(recorderType:)))
        let fused = types.filter(\.isDeviceMotion)
        if !fused.isEmpty, let fusion { sensors.formUnion(fusion.requiredSensors(for: fused)) }
        return sensors
    }

    private func chooseFile(csv: Bool) throws -> URL {
        let fileExtension = csv ? "csv" : "json"
        try FileManager.default.createDirectory(at: output.directory, withIntermediateDirectories: true)
        let url = output.url(fileExtension: fileExtension)
        guard FileManager.default.fileExists(atPath: url.path) else { return url }
        if motionConfiguration.effectiveShouldDeletePrevious {
            try FileManager.default.removeItem(at: url)
            return url
        }
        let taken = Set((try? FileManager.default.contentsOfDirectory(atPath: output.directory.path)) ?? [])
        let name = RecorderFileName.unique(baseName: output.baseName, fileExtension: fileExtension, taken: taken)
        return output.directory.appendingPathComponent(name)
    }

    private func relativePath(of url: URL) -> String {
        let base = output.directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return url.lastPathComponent
    }
}
