import ALSA
import AsyncActions
import BlockingCalls
import Clocks
import Foundation
import Logging
import SampleFiles
import Synchronization
import SystemPackage

/// One recording in progress: the capture PCM, the WAV and levels files and the dedicated
/// thread that reads periods into them. Everything the loop touches is allocated before the
/// thread starts, so the steady state does not allocate.
final class CaptureSession: @unchecked Sendable {
    /// What the recording produced, read once the thread has finished.
    struct Outcome: Sendable {
        var startUptime: Double?
        var endUptime: Double?
        var frames = 0
        var gaps: [StreamGap] = []
        var error: CaptureError?
    }

    /// Why capture ended early, as a sentence.
    struct CaptureError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private struct Shared {
        var stopRequested = false
        var stepPath: String
        var startUptime: Double?
        /// A `stop` gave up waiting for the thread.
        var missedStopDeadline = false
    }

    private let pcm: PCM
    private let parameters: NegotiatedParameters
    private let wav: WAVFileWriter
    private let levels: JSONArrayFile
    private let settings: MicrophoneSettings
    private let logger: Logger
    private let shared: Mutex<Shared>
    private let onGap: @Sendable (StreamGap) -> Void
    private let onLevels: @Sendable (_ average: Double, _ peak: Double) -> Void
    private let outcomeStorage = Mutex(Outcome())
    private var thread: DedicatedThread?
    /// The first failure of the capture, for the controller's monitor.
    let failure = RecordingFailureSignal<CaptureError>()

    init(
        pcm: PCM, parameters: NegotiatedParameters, wav: WAVFileWriter, levels: JSONArrayFile,
        settings: MicrophoneSettings, stepPath: String, logger: Logger,
        onGap: @escaping @Sendable (StreamGap) -> Void,
        onLevels: @escaping @Sendable (_ average: Double, _ peak: Double) -> Void
    ) {
        self.pcm = pcm
        self.parameters = parameters
        self.wav = wav
        self.levels = levels
        self.settings = settings
        self.logger = logger
        self.onGap = onGap
        self.onLevels = onLevels
        shared = Mutex(Shared(stepPath: stepPath))
    }

    /// Starts the capture thread.
    func start() {
        thread = DedicatedThread(name: "microphone-capture", realTime: settings.realTimePriority > 0 ? RealTimeRequest(priority: Int32(settings.realTimePriority)) : nil, onScheduled: { [logger] outcome in
            Self.logScheduling(outcome, logger: logger)
        }) { [self] heartbeat in run(heartbeat) }
    }

    /// Logs what came of the capture thread's request for real-time scheduling (docs/audio.md,
    /// "Threads and allocation"): a refusal as a warning, the rest at debug level, since a
    /// thread starts with each recording and the playback thread already says it once.
    private static func logScheduling(_ outcome: SchedulingOutcome, logger: Logger) {
        var metadata: Logger.Metadata = ["thread": "microphone-capture"]
        for (key, value) in outcome.logFields { metadata[key] = .string(value) }
        logger.log(level: outcome.isFailure ? .warning : .debug, "Microphone capture scheduling: \(outcome.description)", metadata: metadata)
    }

    /// The step path written into the next levels records.
    func setStepPath(_ stepPath: String) {
        shared.withLock { $0.stepPath = stepPath }
    }

    /// CLOCK_BOOTTIME of the first captured frame, once known.
    var startUptime: Double? { shared.withLock { $0.startUptime } }

    /// Asks the loop to stop after the current period and waits for it, at most `deadline`;
    /// nil when the thread is still stuck in a read.
    ///
    /// A thread that already missed one deadline is stuck inside the device's library (the
    /// PulseAudio client deadlocks when its server dies at the wrong moment, docs/audio.md), so
    /// a later stop or halt only looks and does not wait a second deadline out.
    func stop(within deadline: Duration?) async -> Outcome? {
        let missed = shared.withLock { shared in
            shared.stopRequested = true
            return shared.missedStopDeadline
        }
        guard let outcome = await finished(within: missed ? .zero : deadline) else {
            shared.withLock { $0.missedStopDeadline = true }
            return nil
        }
        return outcome
    }

    /// Waits until the loop ends by itself (duration reached or device failure), at most
    /// `deadline`; nil when it has not.
    func finished(within deadline: Duration?) async -> Outcome? {
        guard await thread?.finished(within: deadline) ?? true else { return nil }
        return outcomeStorage.withLock { $0 }
    }

    private var meterFormat: MeterSampleFormat {
        switch parameters.format {
        case .s16LE: .s16
        case .s32LE: .s32
        case .floatLE: .float
        }
    }

    // MARK: The capture thread

    private func run(_ heartbeat: ThreadHeartbeat) {
        let rate = Double(parameters.rate)
        let bytesPerFrame = parameters.bytesPerFrame
        let periodFrames = parameters.periodFrames
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: periodFrames * bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        var meter = LevelMeter()
        var windowing = LevelWindowing(
            windowFrames: Int(saturating: (settings.levelInterval * rate).rounded()),
            frameLimit: settings.maximumDuration.map { Int(saturating: ($0 * rate).rounded()) })
        let windowFrames = windowing.windowFrames
        var startMonotonic = 0.0
        var started = false
        // CLOCK_BOOTTIME − CLOCK_MONOTONIC; checked once per levels record (it moves only
        // across a suspend).
        var bootOffset = RecordingClock.boottimeOffset()
        let format = meterFormat
        let channels = parameters.channels
        var outcome = Outcome()
        // A device that does not keep time (docs/audio.md, "Devices that do not keep time").
        var rateCheck = DeliveryRateCheck(
            nominalRate: rate, slackFrames: parameters.bufferFrames.saturatingAdd(periodFrames))
        let device = "The microphone \"\(pcm.name)\""

        do {
            while !windowing.isComplete {
                if shared.withLock({ $0.stopRequested }) { break }
                heartbeat.beat()
                rateCheck.begin(at: RecordingClock.monotonic())
                let result = try pcm.read(into: buffer.baseAddress!, frames: windowing.framesToRead(period: periodFrames))
                let readEnd = RecordingClock.monotonic()
                if !started {
                    started = true
                    startMonotonic = result.firstFrameTimestamp
                    let startUptime = result.firstFrameTimestamp + bootOffset
                    outcome.startUptime = startUptime
                    shared.withLock { $0.startUptime = startUptime }
                }
                // Fill a lost stretch with silence so the file's time axis stays true.
                let missing = result.gap.map { windowing.silenceFrames(forGap: $0.seconds, rate: rate, followingFrames: result.frames) } ?? 0
                // Judged before anything of this read is written: a device far off its rate stops
                // the recording, so what it writes stays bounded.
                if settings.requiresPacing, let failure = rateCheck.delivered(result.frames.saturatingAdd(missing), at: readEnd).failure(device: device, unit: "frames") {
                    throw CaptureError(description: failure)
                }
                // The WAV format counts data bytes in 32 bits: a recording stops at that limit
                // rather than write a file no reader can take whole.
                let bytesToWrite = result.frames.saturatingAdd(missing).saturatingMultiply(bytesPerFrame)
                if wav.dataSize.saturatingAdd(bytesToWrite) > WAVHeader.maximumDataSize {
                    throw CaptureError(description: "\(device) recorded as much as a WAV file can hold (4 GiB); the recording was stopped there. Record shorter steps or at a lower rate.")
                }
                if let gap = result.gap {
                    outcome.gaps.append(gap)
                    onGap(gap)
                    try windowing.addSilence(missing) { run in
                        try wav.appendSilence(byteCount: run.count * bytesPerFrame)
                        meter.addSilence(count: run.count * channels)
                        if run.closesWindow {
                            try writeLevels(&meter, frames: windowFrames, endFrame: run.endFrame,
                                            startMonotonic: startMonotonic, rate: rate, bootOffset: bootOffset)
                        }
                    }
                }
                try windowing.addSamples(result.frames) { run in
                    guard case .samples(let offset) = run.kind else { return }
                    let slice = UnsafeRawBufferPointer(
                        rebasing: buffer[(offset * bytesPerFrame)..<((offset + run.count) * bytesPerFrame)])
                    try wav.append(slice)
                    meter.add(slice, format: format)
                    if run.closesWindow {
                        try writeLevels(&meter, frames: windowFrames, endFrame: run.endFrame,
                                        startMonotonic: startMonotonic, rate: rate, bootOffset: bootOffset)
                        try wav.updateHeader()
                        // Follow a suspend (the offset jumps), not the microseconds of jitter in
                        // reading two clocks.
                        let freshOffset = RecordingClock.boottimeOffset()
                        if abs(freshOffset - bootOffset) > 0.001 { bootOffset = freshOffset }
                    }
                }
                // Bound what a crash or power cut can lose (SyncPolicy) even when periods are small.
                try wav.writer.maybeFlushByTime()
                try levels.writer.maybeFlushByTime()
            }
            if windowing.windowFill > 0, started {
                try writeLevels(&meter, frames: windowing.windowFill, endFrame: windowing.totalFrames,
                                startMonotonic: startMonotonic, rate: rate, bootOffset: bootOffset)
            }
        } catch {
            outcome.error = CaptureError(description: "\(error)")
            logger.error("Microphone capture failed", metadata: ["device": "\(pcm.name)", "error": "\(error)"])
        }
        try? pcm.drop()
        pcm.close()
        do {
            try wav.close()
            try levels.close()
        } catch {
            if outcome.error == nil { outcome.error = CaptureError(description: "\(error)") }
        }
        outcome.frames = windowing.totalFrames
        if let startUptime = outcome.startUptime {
            outcome.endUptime = startUptime + Double(windowing.totalFrames) / rate
        }
        outcomeStorage.withLock { $0 = outcome }
        if let error = outcome.error { failure.report(error) } else { failure.close() }
    }

    /// Writes `{uptime, timestamp, stepPath, timeInterval, average, peak, unit}` (MobilePassiveData's
    /// AudioLevelRecord) for the window that ends `endFrame` frames after the first frame,
    /// formatted straight into the file buffer.
    ///
    /// Times count frames from the first frame's stream timestamp: the audio clock is the time
    /// axis of the WAV, recovered gaps are filled with silence, so record k of a recording
    /// sits exactly k seconds of audio after the start and lines up with the WAV.
    private func writeLevels(
        _ meter: inout LevelMeter, frames: Int, endFrame: Int, startMonotonic: Double, rate: Double, bootOffset: Double
    ) throws(SampleFileError) {
        let endMonotonic = startMonotonic + Double(endFrame) / rate
        let average = meter.averageDecibels
        let peak = meter.peakDecibels
        meter.reset()
        onLevels(average, peak)
        try levels.appendElement { out in
            out.append("{\"uptime\":")
            out.append(fixed: endMonotonic + bootOffset, fractionDigits: 6)
            out.append(",\"timestamp\":")
            out.append(fixed: endMonotonic - startMonotonic, fractionDigits: 6)
            out.append(",\"stepPath\":")
            self.shared.withLock { out.appendJSONString($0.stepPath) }
            out.append(",\"timeInterval\":")
            out.append(fixed: Double(frames) / rate, fractionDigits: 6)
            out.append(",\"average\":")
            out.append(fixed: average, fractionDigits: 4)
            out.append(",\"peak\":")
            out.append(fixed: peak, fractionDigits: 4)
            out.append(",\"unit\":\"dbFS\"}")
        }
    }
}
