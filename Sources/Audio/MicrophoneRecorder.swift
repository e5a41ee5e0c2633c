import ALSA
public import AsyncActions
import BlockingCalls
public import Foundation
import Logging
import SampleFiles
import Synchronization
import SystemPackage
public import TaskModel

/// The `microphone` async action: records the capture PCM to a WAV file and writes
/// `<identifier>_levels` with one average/peak dBFS record per second, through the shared
/// lifecycle (docs/async-actions.md). With `saveAudioFile` false (SageResearch's default) the
/// WAV is deleted once the levels are written and the result is the levels file; with it true
/// the two file results are wrapped in one `collection` result named `<identifier>`.
public typealias MicrophoneRecorder = RecorderController<MicrophoneRecorderBackend>

extension RecorderController where Backend == MicrophoneRecorderBackend {
    /// A microphone recorder for `configuration`, writing into `output`.
    public init(configuration: AudioRecorderConfiguration, output: RecorderOutput, settings: MicrophoneSettings = MicrophoneSettings()) {
        self.init(configuration: configuration, backend: MicrophoneRecorderBackend(configuration: configuration, output: output, settings: settings))
    }

    /// Waits until a recording with `maximumDuration` has captured all its frames (or failed).
    public func waitUntilCaptured() async {
        await backend.waitUntilCaptured()
    }
}

/// The device half of the microphone recorder: permission is granted when the capture PCM
/// opens; `start` configures it, creates the files and starts the capture thread; `stop` asks
/// the thread to end and waits for it within the deadline. Opening and configuring run on a
/// dedicated thread.
public final class MicrophoneRecorderBackend: RecorderBackend {
    private struct Files {
        var wav: URL
        var levels: URL
        var startDate: Date
        var endDate: Date?
        var outcome: CaptureSession.Outcome?
    }

    private struct State {
        var pcm: PCM?
        var session: CaptureSession?
        var files: Files?
    }

    /// The configuration recorded.
    public let configuration: AudioRecorderConfiguration
    private let output: RecorderOutput
    private let settings: MicrophoneSettings
    private let logger: Logger
    private let state = Mutex(State())

    init(configuration: AudioRecorderConfiguration, output: RecorderOutput, settings: MicrophoneSettings) {
        self.configuration = configuration
        self.output = output
        self.settings = settings
        var logger = output.logger
        logger[metadataKey: "asyncAction"] = "\(configuration.identifier)"
        logger[metadataKey: "device"] = "\(settings.device)"
        self.logger = logger
    }

    private var identifier: String { configuration.identifier }

    /// The WAV file's URL, once recording has started.
    public var audioURL: URL? { state.withLock { $0.files?.wav } }
    /// The levels file's URL, once recording has started.
    public var levelsURL: URL? { state.withLock { $0.files?.levels } }

    /// Waits until the capture thread ends by itself (duration reached or device failure).
    public func waitUntilCaptured() async {
        guard let session = state.withLock({ $0.session }) else { return }
        _ = await session.finished(within: nil)
    }

    // MARK: RecorderBackend

    public func open() async throws(AsyncActionError) {
        let device = settings.device
        let logger = logger
        do {
            let pcm = try await BlockingCall.run("open \(device)", deadline: settings.openDeadline) {
                try PCM(name: device, direction: .capture, logger: logger)
            }
            state.withLock { $0.pcm = pcm }
        } catch let error as BlockingCallTimeout {
            throw AsyncActionError(.timedOut, "The microphone \"\(device)\" did not open within \(error.deadline.seconds) s; the device hangs. Check the capture device setting.")
        } catch let error as ALSAError {
            throw AsyncActionError(.permissionDenied, "The microphone \"\(device)\" cannot be opened: \(error.reason). Check the capture device setting and that this user is in the audio group.")
        } catch {
            throw AsyncActionError(.permissionDenied, "The microphone \"\(device)\" cannot be opened: \(error).")
        }
    }

    public func start(stepPath: String, events: RecorderEvents) async throws(AsyncActionError) {
        guard let pcm = state.withLock({ $0.pcm }) else {
            throw AsyncActionError(.invalidState, "The microphone recorder \(identifier) has no open capture device.")
        }
        let urls: [URL]
        let output = output
        let deletePrevious = configuration.effectiveShouldDeletePrevious
        do {
            urls = try await BlockingCall.run("files \(identifier)", deadline: settings.openDeadline) {
                try output.claimFiles([("", "wav"), ("_levels", "json")], deletePrevious: deletePrevious)
            }
        } catch {
            throw AsyncActionError(.outputFailed, "The microphone recorder \(identifier) could not create its files in \(output.directory.path): \(error)")
        }
        let files = Files(wav: urls[0], levels: urls[1], startDate: Date())
        let settings = settings
        let logger = logger
        let device = settings.device
        let session: CaptureSession
        do {
            session = try await BlockingCall.run("start \(identifier)", deadline: settings.openDeadline) { () throws -> CaptureSession in
                let parameters = try pcm.configure(settings.hardware)
                let wav = try WAVFileWriter(
                    path: FilePath(files.wav.path), encoding: parameters.format == .floatLE ? .float : .integer,
                    channels: parameters.channels, sampleRate: parameters.rate,
                    bitsPerSample: parameters.format.bytesPerSample * 8, policy: settings.syncPolicy)
                let levels = try JSONArrayFile(path: FilePath(files.levels.path), policy: settings.syncPolicy, bufferCapacity: 4096)
                return CaptureSession(
                    pcm: pcm, parameters: parameters, wav: wav, levels: levels, settings: settings,
                    stepPath: stepPath, logger: logger,
                    onGap: { gap in
                        events.warn(String(format: "The microphone lost %.3f s of audio (%@); the gap is filled with silence.", gap.seconds, gap.reason.rawValue))
                    },
                    onLevels: { average, peak in events.progress(.audioLevel(averageDBFS: average, peakDBFS: peak)) })
            }
        } catch let error as BlockingCallTimeout {
            throw AsyncActionError(.timedOut, "The microphone \"\(device)\" could not be configured within \(error.deadline.seconds) s; the device hangs.")
        } catch {
            throw AsyncActionError(.deviceFailed, "The microphone recorder \(identifier) could not start: \(error)")
        }
        state.withLock {
            $0.session = session
            $0.files = files
        }
        session.start()
        logger.info("Microphone recording started", metadata: ["stepPath": "\(stepPath)", "file": "\(files.wav.lastPathComponent)"])
    }

    public func moveTo(stepPath: String, uptime: Double) async throws(AsyncActionError) {
        // Levels records carry the current step path; no marker records (as SageResearch).
        state.withLock { $0.session }?.setStepPath(stepPath)
    }

    public func stop() async throws(AsyncActionError) {
        guard let session = state.withLock({ $0.session }) else {
            throw AsyncActionError(.invalidState, "The microphone recorder \(identifier) is not recording.")
        }
        guard let outcome = await session.stop(within: settings.stopDeadline) else {
            throw AsyncActionError(.timedOut, "The microphone \"\(settings.device)\" did not stop within \(settings.stopDeadline.seconds) s; the device hangs in a read.")
        }
        if let error = outcome.error {
            throw Self.recordingFailure(device: settings.device, error)
        }
        state.withLock {
            $0.files?.outcome = outcome
            $0.files?.endDate = Date()
        }
        logger.info("Microphone recording stopped", metadata: ["frames": "\(outcome.frames)", "gaps": "\(outcome.gaps.count)"])
    }

    public func results() async throws(AsyncActionError) -> [any ResultData] {
        guard let files = state.withLock({ $0.files }), let outcome = files.outcome else { return [] }
        let endDate = files.endDate ?? Date()
        var notes = outcome.gaps.map { gap in
            String(format: "%@ of %.3f s at monotonic %.3f, filled with silence", gap.reason.rawValue, gap.seconds, gap.startTimestamp)
        }
        if outcome.frames == 0 { notes.append("no audio was captured") }
        let levels = FileResult(
            identifier: "\(identifier)_levels", startDate: files.startDate, endDate: endDate,
            relativePath: output.relativePath(of: files.levels), contentType: "application/json",
            startUptime: outcome.startUptime, notes: notes)
        guard configuration.effectiveSaveAudioFile else {
            // The levels file is closed and synced by now; the audio is not kept.
            try? FileManager.default.removeItem(at: files.wav)
            return [levels]
        }
        let audio = FileResult(
            identifier: identifier, startDate: files.startDate, endDate: endDate,
            relativePath: output.relativePath(of: files.wav), contentType: "audio/wav",
            startUptime: outcome.startUptime, notes: notes)
        // More than one file: one collection, as MobilePassiveData's SampleRecorder returns it.
        return [CollectionResult(identifier: identifier, startDate: files.startDate, endDate: endDate, children: [AnyResult(levels), AnyResult(audio)])]
    }

    public func halt(deleteOutput: Bool) async {
        let (pcm, session, files) = state.withLock { state in
            defer { state.pcm = nil }
            return (state.pcm, state.session, state.files)
        }
        if let session {
            _ = await session.stop(within: settings.stopDeadline)
        } else if let pcm {
            _ = try? await BlockingCall.run("close \(settings.device)", deadline: settings.stopDeadline) { pcm.close() }
        }
        if deleteOutput, let files {
            try? FileManager.default.removeItem(at: files.wav)
            try? FileManager.default.removeItem(at: files.levels)
        }
    }

    public func waitForFailure() async -> AsyncActionError? {
        guard let session = state.withLock({ $0.session }) else { return nil }
        let device = settings.device
        return await session.failure.wait().map { error in
            Self.recordingFailure(device: device, error)
        }
    }
}

extension MicrophoneRecorderBackend {
    /// The error result for a capture that failed mid-recording: one message, whatever the cause,
    /// with ALSA's own reason folded into the sentence (its description is whole sentences).
    static func recordingFailure(device: String, _ error: any Error) -> AsyncActionError {
        let cause: String
        if let alsa = error as? ALSAError {
            cause = "could not \(alsa.operation): \(alsa.reason) (error \(alsa.code))"
        } else {
            var text = "\(error)"
            while text.hasSuffix(".") { text.removeLast() }
            cause = text
        }
        return AsyncActionError(
            .deviceFailed,
            "The microphone \"\(device)\" failed while recording: \(cause). The files keep what was recorded before the failure; check that the device is connected and not used by another program, then start the task again.")
    }
}
