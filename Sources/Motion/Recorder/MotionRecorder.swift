public import AsyncActions
import BlockingCalls
import Clocks
public import Foundation
public import Logging
import SampleFiles
import Synchronization
import SystemPackage
public import TaskModel

/// The `motion` async action: records raw motion sensors (and, with a fusion stage, device
/// motion) from a motion source to a SageResearch motion file, through the shared lifecycle
/// (docs/async-actions.md).
public typealias MotionRecorder = RecorderController<MotionRecorderBackend>

/// Opens a motion source; runs on a dedicated thread (opening `ip:` is a network connect).
public typealias MotionSourceOpener = @Sendable (_ uri: String, _ logger: Logger) throws(MotionSourceError) -> any MotionSource

extension RecorderController where Backend == MotionRecorderBackend {
    /// A motion recorder for `configuration`, writing into `output`.
    /// - Parameters:
    ///   - settings: the IIO URI (`local:`, `ip:HOST`, `sim:`), sync policy and deadlines.
    ///   - fusion: the sensor-fusion stage factory; nil when none is plugged in, in which case
    ///     configurations asking for device-motion types fail at permission time.
    ///   - openSource: how the source is opened; `MotionSources.open` unless a test wraps it.
    public init(
        configuration: MotionRecorderConfiguration, output: RecorderOutput, settings: MotionDeviceSettings = MotionDeviceSettings(),
        fusion: (any MotionFusionFactory)? = nil, openSource: @escaping MotionSourceOpener = MotionSources.open
    ) {
        self.init(
            configuration: configuration,
            backend: MotionRecorderBackend(
                configuration: configuration, output: output, settings: settings, fusion: fusion, openSource: openSource))
    }
}

/// The device half of the motion recorder: `open()` opens the source and checks that every
/// requested type can be produced; `start` creates the file, writes the first step marker and
/// starts the source's reader threads; `moveTo` writes a marker; `stop` stops the readers and
/// closes the file. Opening, configuring and closing run on dedicated threads with deadlines.
public final class MotionRecorderBackend: RecorderBackend {
    private struct Recording {
        var pipeline: MotionPipeline
        var fileURL: URL
        var startUptime: Double
        var startDate: Date
        var endDate: Date?
        var notes: [String] = []
        var isSourceRunning = true
    }

    private struct State {
        var source: (any MotionSource)?
        var recording: Recording?
    }

    /// The configuration recorded.
    public let configuration: MotionRecorderConfiguration
    private let output: RecorderOutput
    private let settings: MotionDeviceSettings
    private let fusion: (any MotionFusionFactory)?
    private let openSource: MotionSourceOpener
    private let logger: Logger
    private let state = Mutex(State())

    init(
        configuration: MotionRecorderConfiguration, output: RecorderOutput, settings: MotionDeviceSettings,
        fusion: (any MotionFusionFactory)?, openSource: @escaping MotionSourceOpener
    ) {
        self.configuration = configuration
        self.output = output
        self.settings = settings
        self.fusion = fusion
        self.openSource = openSource
        var logger = output.logger
        logger[metadataKey: "asyncAction"] = "\(configuration.identifier)"
        self.logger = logger
    }

    private var identifier: String { configuration.identifier }
    private var uri: String { settings.iioURI }
    private var types: Set<MotionRecorderType> { Set(configuration.effectiveRecorderTypes) }

    /// The notes of the recording so far (gaps, derived times).
    public var currentNotes: [String] {
        state.withLock { $0.recording?.pipeline.notes } ?? []
    }

    // MARK: RecorderBackend

    public func open() async throws(AsyncActionError) {
        let fusedTypes = types.filter(\.isDeviceMotion)
        if !fusedTypes.isEmpty {
            guard let fusion else {
                throw AsyncActionError(
                    .unsupported,
                    "The motion recorder \(identifier) asks for \(fusedTypes.map(\.rawValue).sorted().joined(separator: ", ")), which come from sensor fusion, but no fusion stage is available; record accelerometer, gyro and magnetometer instead, or run a build with sensor fusion.")
            }
            let unsupported = fusedTypes.subtracting(fusion.producibleTypes)
            if !unsupported.isEmpty {
                throw AsyncActionError(
                    .unsupported,
                    "The sensor fusion stage cannot produce \(unsupported.map(\.rawValue).sorted().joined(separator: ", ")); remove them from recorderTypes of \(identifier).")
            }
        }
        let uri = uri
        let logger = logger
        let openSource = openSource
        let source: any MotionSource
        do {
            source = try await BlockingCall.run("open \(uri)", deadline: settings.openDeadline) { try openSource(uri, logger) }
        } catch let error as BlockingCallTimeout {
            throw AsyncActionError(
                .timedOut,
                "The motion sensors at \(uri) did not answer within \(error.deadline.seconds) s. Check that the device (or iiod at that address) is up and reachable, then start again.")
        } catch let error as MotionSourceError {
            throw AsyncActionError(.permissionDenied, "The motion sensors at \(uri) cannot be opened: \(error.message)")
        } catch {
            throw AsyncActionError(.permissionDenied, "The motion sensors at \(uri) cannot be opened: \(error)")
        }
        let missing = requiredSensors(for: types).subtracting(source.availableSensors)
        if !missing.isEmpty {
            throw AsyncActionError(
                .permissionDenied,
                "The motion recorder \(identifier) needs \(missing.sorted().map(\.rawValue).joined(separator: ", ")), which \(uri) does not have. Run activetaskctl sensors --iio-uri \(uri) to see what it has.")
        }
        state.withLock { $0.source = source }
    }

    public func start(stepPath: String, events: RecorderEvents) async throws(AsyncActionError) {
        guard let source = state.withLock({ $0.source }) else {
            throw AsyncActionError(.invalidState, "The motion recorder \(identifier) has no open source.")
        }
        let csv = configuration.effectiveUsesCSVEncoding
        let fileURL: URL
        let output = output
        let deletePrevious = configuration.effectiveShouldDeletePrevious
        do {
            fileURL = try await BlockingCall.run("files \(identifier)", deadline: settings.openDeadline) {
                try output.claimFiles([("", csv ? "csv" : "json")], deletePrevious: deletePrevious)[0]
            }
        } catch {
            throw AsyncActionError(.outputFailed, "The motion recorder \(identifier) could not create its file in \(output.directory.path): \(error)")
        }
        let types = types
        let frequency = configuration.effectiveFrequency
        let rawSensors = Set(types.compactMap(SensorKind.init(recorderType:)))
        let fusedTypes = types.filter(\.isDeviceMotion)
        let fusion = fusion
        let sensors = requiredSensors(for: types)
        let policy = settings.syncPolicy
        let recording: Recording
        do {
            // Creating the file, the sysfs writes and the buffer creation block: a dedicated thread.
            recording = try await BlockingCall.run("start \(identifier)", deadline: settings.openDeadline) { () throws -> Recording in
                let writer = try MotionRecordWriter(path: FilePath(fileURL.path), csv: csv, startUptime: RecordingClock.uptime(), policy: policy)
                // The recording starts once its file exists, just before the sensors do: creating
                // a file can take a while on a busy disk (0.3 s seen), and no sample is taken
                // before the source starts.
                let startUptime = RecordingClock.uptime()
                let startDate = RecordingClock.date(atUptime: startUptime)
                writer.startUptime = startUptime
                let stage = fusedTypes.isEmpty ? nil : fusion?.makeStage(types: fusedTypes, frequency: frequency)
                let pipeline = MotionPipeline(
                    writer: writer, rawTypes: rawSensors,
                    frequencies: Dictionary(uniqueKeysWithValues: sensors.map { ($0, frequency) }), fusion: stage,
                    warn: { events.warn($0) },
                    progress: { written, rate in events.progress(.motion(samplesWritten: written, achievedRate: rate)) })
                do {
                    pipeline.mark(uptime: startUptime, stepPath: stepPath) { _ in Timestamp.string(from: startDate) }
                    pipeline.setFrequencies(try source.start(sensors: sensors, frequency: frequency, sink: pipeline))
                } catch {
                    pipeline.abandon()
                    throw error
                }
                return Recording(pipeline: pipeline, fileURL: fileURL, startUptime: startUptime, startDate: startDate)
            }
        } catch let error as BlockingCallTimeout {
            throw AsyncActionError(.timedOut, "The motion sensors at \(uri) did not start within \(error.deadline.seconds) s; the device hangs. Reconnect it and start again.")
        } catch let error as MotionSourceError {
            throw AsyncActionError(.deviceFailed, error.message)
        } catch {
            throw AsyncActionError(.outputFailed, "The motion recorder \(identifier) could not write its file: \(error)")
        }
        state.withLock { $0.recording = recording }
        logger.info("Motion recording started", metadata: ["file": "\(fileURL.lastPathComponent)", "types": "\(types.map(\.rawValue).sorted())"])
    }

    public func moveTo(stepPath: String, uptime: Double) async throws(AsyncActionError) {
        // Announced, not written here: the reader thread writes it before its next batch, so it
        // never waits for a disk and no sample taken after it is stamped with the step before.
        // A failed write ends the recording through the pipeline's failure, like a record's.
        state.withLock { $0.recording?.pipeline }?.mark(uptime: uptime, stepPath: stepPath) { markerUptime in
            Timestamp.string(from: RecordingClock.date(atUptime: markerUptime))
        }
    }

    public func stop() async throws(AsyncActionError) {
        guard let recording = state.withLock({ $0.recording }), let source = state.withLock({ $0.source }) else {
            throw AsyncActionError(.invalidState, "The motion recorder \(identifier) is not recording.")
        }
        // The recording ends when it is asked to stop: the source delivers what was sampled until
        // then, and closing the file (an fsync) is not recording time.
        let endDate = Date()
        do {
            try await source.stop(within: settings.stopDeadline)
        } catch {
            throw AsyncActionError(.timedOut, error.message)
        }
        state.withLock { $0.recording?.isSourceRunning = false }
        // A reader failure that came while stopping (the device went as it was stopped) makes
        // the file a cut one: it never becomes a clean file result.
        if let failure = recording.pipeline.recordedFailure { throw Self.error(of: failure) }
        let pipeline = recording.pipeline
        let notes: [String]
        do {
            notes = try await BlockingCall.run("close \(recording.fileURL.lastPathComponent)", deadline: settings.stopDeadline) { try pipeline.close() }
        } catch let error as BlockingCallTimeout {
            throw AsyncActionError(.timedOut, "The motion file \(recording.fileURL.lastPathComponent) could not be written to disk within \(error.deadline.seconds) s; the disk hangs.")
        } catch {
            throw AsyncActionError(.outputFailed, "The motion recorder \(identifier) could not finish its file: \(error)")
        }
        state.withLock {
            $0.recording?.notes = notes
            $0.recording?.endDate = endDate
        }
        logger.info("Motion recording finished", metadata: ["records": "\(pipeline.recordCount)", "notes": "\(notes.count)"])
    }

    public func results() async throws(AsyncActionError) -> [any ResultData] {
        guard let recording = state.withLock({ $0.recording }) else { return [] }
        return [
            FileResult(
                identifier: identifier, startDate: recording.startDate, endDate: recording.endDate ?? Date(),
                relativePath: output.relativePath(of: recording.fileURL),
                contentType: configuration.effectiveUsesCSVEncoding ? "text/csv" : "application/json",
                startUptime: recording.startUptime, notes: recording.notes),
        ]
    }

    public func halt(deleteOutput: Bool) async {
        let (source, recording) = state.withLock { state in
            defer { state.recording?.isSourceRunning = false }
            return (state.source, state.recording)
        }
        if let recording {
            // Closed before the source's readers are joined: a caller seeing `failed` may exit at
            // once, and samples still arriving are dropped by the closed pipeline.
            let pipeline = recording.pipeline
            _ = try? await BlockingCall.run("close \(recording.fileURL.lastPathComponent)", deadline: settings.stopDeadline) { pipeline.abandon() }
            if recording.isSourceRunning, let source {
                try? await source.stop(within: settings.stopDeadline)
            }
            if deleteOutput { try? FileManager.default.removeItem(at: recording.fileURL) }
        }
        state.withLock { $0.source = nil }
    }

    public func waitForFailure() async -> AsyncActionError? {
        guard let pipeline = state.withLock({ $0.recording?.pipeline }) else { return nil }
        return await pipeline.waitForFailure().map(Self.error(of:))
    }

    // MARK: Helpers

    private static func error(of failure: MotionPipeline.Failure) -> AsyncActionError {
        switch failure {
        case .source(let error): AsyncActionError(.deviceFailed, error.message)
        case .output(let error): AsyncActionError(.outputFailed, "The motion file could not be written: \(error.description)")
        }
    }

    private func requiredSensors(for types: Set<MotionRecorderType>) -> Set<SensorKind> {
        var sensors = Set(types.compactMap(SensorKind.init(recorderType:)))
        let fused = types.filter(\.isDeviceMotion)
        if !fused.isEmpty, let fusion { sensors.formUnion(fusion.requiredSensors(for: fused)) }
        return sensors
    }
}
