import ALSA
public import AsyncActions
public import Foundation
import Logging
import SampleFiles
import SystemPackage
public import TaskModel

/// The `microphone` async action: records the capture PCM to a WAV file and writes
/// `<identifier>_levels` with one average/peak dBFS record per second. With `saveAudioFile`
/// false (SageResearch's default) the WAV is deleted once the levels are written.
///
/// Permission is granted when the capture PCM opens. A device failing mid-recording fails only
/// this controller: it publishes an `<identifier>_error` result and moves to `failed`.
public actor MicrophoneRecorder: AsyncActionController {
    private enum State {
        case idle
        case permissionGranted(PCM)
        case running(CaptureSession, Files)
        case finished
        case cancelled
        case failed
    }

    private struct Files {
        var wav: URL
        var levels: URL
        var startDate: Date
    }

    public nonisolated let configuration: any AsyncActionConfiguration
    public nonisolated let events: AsyncStream<AsyncActionEvent>
    private nonisolated let audioConfiguration: AudioRecorderConfiguration
    private let output: RecorderOutput
    private let settings: MicrophoneSettings
    private let publisher: StatusPublisher
    private let logger: Logger
    private var state = State.idle

    public init(configuration: AudioRecorderConfiguration, output: RecorderOutput, settings: MicrophoneSettings = MicrophoneSettings()) {
        self.configuration = configuration
        audioConfiguration = configuration
        self.output = output
        self.settings = settings
        var logger = output.logger
        logger[metadataKey: "asyncAction"] = "\(configuration.identifier)"
        logger[metadataKey: "device"] = "\(settings.device)"
        self.logger = logger
        let (stream, continuation) = AsyncStream<AsyncActionEvent>.makeStream()
        events = stream
        publisher = StatusPublisher(identifier: configuration.identifier, continuation: continuation)
    }

    public var status: AsyncActionStatus { publisher.status }

    /// The WAV file's URL (it exists only while recording, or after stop with `saveAudioFile`).
    public nonisolated var audioURL: URL { output.url(fileExtension: "wav") }
    /// The levels file's URL.
    public nonisolated var levelsURL: URL { output.url(fileExtension: "json", suffix: "_levels") }

    public func requestPermission() async throws {
        guard case .idle = state else {
            throw AsyncActionError(.invalidState, "The microphone recorder \(configuration.identifier) was asked for permission while \(status); create a new controller for a new recording.")
        }
        publisher.move(to: .requestingPermission)
        do {
            let pcm = try PCM(name: settings.device, direction: .capture, logger: logger)
            state = .permissionGranted(pcm)
            publisher.move(to: .permissionGranted)
        } catch {
            state = .failed
            let message = "The microphone \"\(settings.device)\" cannot be opened: \(error.reason). Check the capture device setting and that this user is in the audio group."
            publisher.fail(with: errorResult(code: .permissionDenied, message: message))
            throw AsyncActionError(.permissionDenied, message)
        }
    }

    public func start(stepPath: String) async throws {
        guard case .permissionGranted(let pcm) = state else {
            throw AsyncActionError(.invalidState, "The microphone recorder \(configuration.identifier) cannot start while \(status); request permission first.")
        }
        publisher.move(to: .starting)
        do {
            let parameters = try pcm.configure(settings.hardware)
            let files = Files(wav: audioURL, levels: levelsURL, startDate: Date())
            if audioConfiguration.effectiveShouldDeletePrevious {
                try? FileManager.default.removeItem(at: files.wav)
                try? FileManager.default.removeItem(at: files.levels)
            }
            let wav = try WAVFileWriter(
                path: FilePath(files.wav.path), encoding: parameters.format == .floatLE ? .float : .integer,
                channels: parameters.channels, sampleRate: parameters.rate,
                bitsPerSample: parameters.format.bytesPerSample * 8, policy: settings.syncPolicy)
            let levels = try JSONArrayFile(path: FilePath(files.levels.path), policy: settings.syncPolicy, bufferCapacity: 4096)
            let publisher = publisher
            let identifier = configuration.identifier
            let startDate = files.startDate
            let device = settings.device
            let session = CaptureSession(
                pcm: pcm, parameters: parameters, wav: wav, levels: levels, settings: settings,
                stepPath: stepPath, logger: logger,
                onGap: { gap in
                    publisher.warn(String(format: "The microphone lost %.3f s of audio (%@); the gap is filled with silence.", gap.seconds, gap.reason.rawValue))
                },
                onFailure: { error in
                    publisher.fail(with: ErrorResult(
                        identifier: "\(identifier)_error", startDate: startDate, endDate: Date(),
                        errorDescription: "The microphone \"\(device)\" failed while recording: \(error). The files keep what was recorded before the failure.",
                        errorDomain: AsyncActionError.domain, errorCode: AsyncActionError.Code.deviceFailed.rawValue))
                })
            state = .running(session, files)
            session.start()
            publisher.move(to: .running)
            logger.info("Microphone recording started", metadata: [
                "rate": "\(parameters.rate)", "channels": "\(parameters.channels)",
                "periodFrames": "\(parameters.periodFrames)", "stepPath": "\(stepPath)",
            ])
        } catch {
            state = .failed
            let message = "The microphone recorder \(configuration.identifier) could not start: \(error)"
            publisher.fail(with: errorResult(code: .deviceFailed, message: message))
            throw AsyncActionError(.deviceFailed, message)
        }
    }

    public func moveTo(stepPath: String) async {
        // Levels records carry the current step path; no marker records (as SageResearch).
        if case .running(let session, _) = state { session.setStepPath(stepPath) }
    }

    /// Waits until a recording with `maximumDuration` has captured all its frames (or failed).
    public func waitUntilCaptured() async {
        guard case .running(let session, _) = state else { return }
        _ = await session.finished()
    }

    public func stop() async throws -> [any ResultData] {
        guard case .running(let session, let files) = state else {
            throw AsyncActionError(.invalidState, "The microphone recorder \(configuration.identifier) cannot stop while \(status).")
        }
        publisher.move(to: .waitingToStop)
        let outcome = await session.stop()
        // Re-check after the await: a cancel may have come in meanwhile.
        guard case .running = state else { return [] }
        if let error = outcome.error {
            state = .failed
            publisher.fail(with: errorResult(code: .deviceFailed, message: "The microphone \"\(settings.device)\" failed while recording: \(error)."))
            return [errorResult(code: .deviceFailed, message: "The microphone \"\(settings.device)\" failed while recording: \(error).")]
        }
        publisher.move(to: .processingResults)
        let endDate = Date()
        let startUptime = outcome.startUptime
        var notes = outcome.gaps.map { gap in
            String(format: "%@ of %.3f s at monotonic %.3f, filled with silence", gap.reason.rawValue, gap.seconds, gap.startTimestamp)
        }
        if outcome.frames == 0 { notes.append("no audio was captured") }
        var results: [any ResultData] = [
            FileResult(
                identifier: "\(configuration.identifier)_levels", startDate: files.startDate, endDate: endDate,
                relativePath: files.levels.lastPathComponent, contentType: "application/json",
                startUptime: startUptime, notes: notes),
        ]
        if audioConfiguration.effectiveSaveAudioFile {
            results.append(FileResult(
                identifier: configuration.identifier, startDate: files.startDate, endDate: endDate,
                relativePath: files.wav.lastPathComponent, contentType: "audio/wav",
                startUptime: startUptime, notes: notes))
        } else {
            // The levels file is closed and synced by now; the audio is not kept.
            try? FileManager.default.removeItem(at: files.wav)
        }
        publisher.move(to: .stopping)
        state = .finished
        publisher.move(to: .finished)
        logger.info("Microphone recording stopped", metadata: ["frames": "\(outcome.frames)", "gaps": "\(outcome.gaps.count)"])
        return results
    }

    public func cancel() async {
        let previous = state
        state = .cancelled
        switch previous {
        case .running(let session, let files):
            _ = await session.stop()
            try? FileManager.default.removeItem(at: files.wav)
            try? FileManager.default.removeItem(at: files.levels)
        case .permissionGranted(let pcm):
            pcm.close()
        case .idle, .finished, .cancelled, .failed:
            break
        }
        publisher.move(to: .cancelled)
    }

    private func errorResult(code: AsyncActionError.Code, message: String) -> ErrorResult {
        ErrorResult(
            identifier: "\(configuration.identifier)_error", startDate: Date(), endDate: Date(),
            errorDescription: message, errorDomain: AsyncActionError.domain, errorCode: code.rawValue)
    }
}
