import Clocks
public import ALSA
import BlockingCalls
import Foundation
public import Logging

/// Plays clips through an ALSA playback PCM, each at a scheduled CLOCK_MONOTONIC time, on a
/// dedicated thread.
///
/// Timing comes from the stream itself: before a clip it writes exactly as much silence as puts
/// the clip's first frame at its due time (the status timestamp plus the queued delay says when
/// each written frame will be heard), so the onset error is that of ALSA's delay report, not of
/// thread wake-ups. A clip due while another plays is queued behind it, never dropped. The
/// stream is drained and idle when nothing is queued.
public final class PromptPlayer: @unchecked Sendable {
    /// One clip to play.
    public struct Item: Sendable {
        public var id: UInt64
        /// The path of the step the clip belongs to ("" when none).
        public var stepPath: String
        /// What the clip says (or `<start sound>`), for events and logs.
        public var text: String
        public var clip: AudioClip
        /// CLOCK_MONOTONIC seconds at which the first frame should be heard; nil = at once.
        public var due: Double?

        public init(id: UInt64, stepPath: String, text: String, clip: AudioClip, due: Double?) {
            self.id = id
            self.stepPath = stepPath
            self.text = text
            self.clip = clip
            self.due = due
        }
    }

    /// When a clip was actually heard, from the stream's timestamps.
    public struct Onset: Sendable, Hashable {
        public var id: UInt64
        public var stepPath: String
        public var text: String
        public var due: Double?
        /// CLOCK_MONOTONIC seconds of the clip's first frame.
        public var onset: Double
        /// CLOCK_MONOTONIC seconds just after its last frame.
        public var end: Double
    }

    /// The sample rate every clip is converted to.
    public let sampleRate: Int
    public let device: String
    private let pcm: PCM
    private let parameters: NegotiatedParameters
    private let logger: Logger
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var stopRequested = false
    private var keepsWarm = false
    private var thread: DedicatedThread?
    private let onOnset: @Sendable (Onset) -> Void
    private let onFinished: @Sendable (Onset) -> Void
    private let onFailure: @Sendable (ALSAError) -> Void

    /// Opens `device` for playback (S16_LE mono at `sampleRate`, ~12 ms periods) and starts the
    /// playback thread.
    public init(
        device: String, sampleRate: Int = 22_050, periodFrames: Int = 256, bufferFrames: Int = 2_048,
        logger: Logger,
        onOnset: @escaping @Sendable (Onset) -> Void = { _ in },
        onFinished: @escaping @Sendable (Onset) -> Void = { _ in },
        onFailure: @escaping @Sendable (ALSAError) -> Void = { _ in }
    ) throws(ALSAError) {
        self.device = device
        self.logger = logger
        self.onOnset = onOnset
        self.onFinished = onFinished
        self.onFailure = onFailure
        pcm = try PCM(name: device, direction: .playback, logger: logger)
        parameters = try pcm.configure(
            HardwareParameters(rate: sampleRate, channels: 1, format: .s16LE, periodFrames: periodFrames, bufferFrames: bufferFrames),
            software: SoftwareParameters(startThreshold: periodFrames))
        self.sampleRate = parameters.rate
        thread = DedicatedThread(name: "voice-playback") { [self] heartbeat in run(heartbeat) }
    }

    /// Queues a clip (converted to the player's rate if needed).
    public func enqueue(_ item: Item) {
        var item = item
        if item.clip.sampleRate != sampleRate { item.clip = item.clip.resampled(to: sampleRate) }
        condition.lock()
        let position = queue.firstIndex { ($0.due ?? -.infinity) > (item.due ?? -.infinity) } ?? queue.endIndex
        queue.insert(item, at: position)
        condition.signal()
        condition.unlock()
    }

    /// Keeps the stream running on silence while nothing is queued, so that the next clip is
    /// heard on time: a stream's start-up latency (hundreds of milliseconds through PulseAudio)
    /// happens once, when warming starts, not at the first prompt. The prompter warms the stream
    /// from when a step with prompts is prepared until it ends.
    public func setKeepsWarm(_ warm: Bool) {
        condition.lock()
        keepsWarm = warm
        condition.signal()
        condition.unlock()
    }

    /// Removes queued clips that have not started; returns the ids removed.
    @discardableResult
    public func removePending(where shouldRemove: (Item) -> Bool) -> [UInt64] {
        condition.lock()
        defer { condition.unlock() }
        let removed = queue.filter(shouldRemove).map(\.id)
        queue.removeAll(where: shouldRemove)
        condition.signal()
        return removed
    }

    /// Stops after the current period (a clip being played is cut) and closes the PCM.
    public func shutdown() async {
        requestStop()
        await thread?.finished()
    }

    private func requestStop() {
        condition.lock()
        stopRequested = true
        condition.signal()
        condition.unlock()
    }

    // MARK: The playback thread

    private func run(_ heartbeat: ThreadHeartbeat) {
        let rate = Double(parameters.rate)
        let period = parameters.periodFrames
        let bufferSeconds = Double(parameters.bufferFrames) / rate
        let silence = [Int16](repeating: 0, count: period)
        var streamActive = false
        var nextHeard: Double?

        /// Writes and returns when the first written frame will be heard. The stream's estimate
        /// is never earlier than the end of what was written before (a device that is not paced
        /// reports no delay; frames still play one after another).
        func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> Double {
            heartbeat.beat()
            let result = try pcm.write(from: UnsafeRawPointer(samples.baseAddress!), frames: samples.count)
            if let gap = result.gap {
                logger.warning("Voice playback ran dry", metadata: ["seconds": "\(gap.seconds)", "reason": "\(gap.reason.rawValue)"])
            }
            let heard = max(result.firstFrameTimestamp, nextHeard ?? -.infinity)
            nextHeard = heard + Double(result.frames) / rate
            streamActive = true
            return heard
        }

        do {
            while true {
                condition.lock()
                if stopRequested {
                    condition.unlock()
                    break
                }
                let now = RecordingClock.monotonic()
                let head = queue.first
                if head == nil, !keepsWarm {
                    if streamActive {
                        condition.unlock()
                        try pcm.drain()
                        try pcm.prepare()
                        streamActive = false
                        nextHeard = nil
                        continue
                    }
                    heartbeat.idle()
                    condition.wait()
                    condition.unlock()
                    continue
                }
                if let head, let due = head.due, !streamActive, !keepsWarm, due - now > bufferSeconds + 0.05 {
                    // Sleep until shortly before the stream must start feeding silence.
                    heartbeat.idle()
                    _ = condition.wait(until: Date(timeIntervalSinceNow: due - now - bufferSeconds - 0.02))
                    condition.unlock()
                    continue
                }
                // Frames of silence still needed before the head is due (a period when idle).
                let remaining: Int
                if let head {
                    remaining = head.due.map { Int((($0 - (nextHeard ?? now)) * rate).rounded()) } ?? 0
                } else {
                    remaining = period
                }
                if remaining > 0 {
                    condition.unlock()
                    let count = min(remaining, period)
                    _ = try silence.withUnsafeBufferPointer { buffer throws(ALSAError) in
                        try write(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    }
                    // A device that is not paced in real time (an ALSA `file` PCM) accepts
                    // silence as fast as it is written; wait for the clock instead of
                    // filling the disk.
                    if let nextHeard, nextHeard - RecordingClock.monotonic() > bufferSeconds + 0.05 {
                        condition.lock()
                        _ = condition.wait(until: Date(timeIntervalSinceNow: nextHeard - RecordingClock.monotonic() - bufferSeconds))
                        condition.unlock()
                    }
                    continue
                }
                queue.removeFirst()
                condition.unlock()
                if let head { try play(head, period: period, rate: rate, write: write) }
            }
        } catch {
            logger.error("Voice playback failed", metadata: ["device": "\(device)", "error": "\(error)"])
            onFailure(error)
        }
        // Let what is queued be heard (at most one buffer) rather than cutting the last prompt.
        if streamActive { try? pcm.drain() }
        pcm.close()
    }

    private func play(
        _ item: Item, period: Int, rate: Double,
        write: (UnsafeBufferPointer<Int16>) throws(ALSAError) -> Double
    ) throws(ALSAError) {
        var onset: Double?
        var end = RecordingClock.monotonic()
        try item.clip.samples.withUnsafeBufferPointer { samples throws(ALSAError) in
            var offset = 0
            while offset < samples.count {
                if condition.withLock({ stopRequested }) { return }
                let count = min(period, samples.count - offset)
                let heard = try write(UnsafeBufferPointer(rebasing: samples[offset..<(offset + count)]))
                if onset == nil {
                    onset = heard
                    onOnset(Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due, onset: heard,
                                  end: heard + Double(samples.count) / rate))
                }
                end = heard + Double(count) / rate
                offset += count
            }
        }
        let heard = onset ?? end
        onFinished(Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due, onset: heard, end: end))
        logger.debug("Played a voice clip", metadata: [
            "stepPath": "\(item.stepPath)", "text": "\(item.text)", "onset": "\(heard)",
            "lateBy": "\(item.due.map { heard - $0 } ?? 0)",
        ])
    }
}
