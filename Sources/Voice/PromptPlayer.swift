import Clocks
public import ALSA
import BlockingCalls
import Foundation
public import Logging

/// Plays clips through an ALSA playback PCM, each at a scheduled CLOCK_MONOTONIC time, on a
/// dedicated thread.
///
/// Timing comes from the stream itself: before a timed clip it writes exactly as much silence
/// as puts the clip's first frame at its due time (the status timestamp plus the queued delay
/// says when each written frame will be heard), so the onset error is that of ALSA's delay
/// report, not of thread wake-ups. A clip due while another of its step plays is queued behind
/// it, never dropped; another step's clip stops the one playing when it falls due
/// (`isOvertaken`), as a step that speaks at once does (`requestCut(where:)`). Between prompts
/// the stream costs nothing: `PromptStreamPolicy` decides when it is opened, started, stopped
/// and closed, and no silence is written to keep it running.
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
        /// A time already past is played at once too, and reported against that time.
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
        /// How `onset` was measured: at the first write a first report; once the clip has
        /// played, the best measure the device gave.
        public var measure: OnsetMeasure
    }

    /// The sample rate every clip is converted to.
    public let sampleRate: Int
    public let device: String
    /// When the stream is opened, started, stopped and closed.
    public let policy: PromptStreamPolicy
    private let hardware: HardwareParameters
    private let software: SoftwareParameters
    private let logger: Logger
    private let condition = NSCondition()
    private var queue: [Item] = []
    /// The clip the thread is playing, taken from `queue` (its duration bounds a wait for it).
    private var playing: Item?
    /// When the last clip played will have been heard to its end (CLOCK_MONOTONIC).
    private var heardUntil = -Double.infinity
    /// While the held stream runs: when a frame written next would be heard (CLOCK_MONOTONIC),
    /// behind the silence already written and the device's delay (`earliestOnset()`), and
    /// since when it has run.
    private var heldHeardFrom: Double?
    private var heldRunningSince: Double?
    /// How long a held stream runs before its delay reports are trusted to place a clip: a
    /// stream that has just started reports its delay without the sound server's own latency
    /// (a 250 ms device's first prompt was heard 207 ms late when placed by them).
    public static let heldSettleTime = 0.5
    private var stopRequested = false
    /// Set by `requestCut(where:)`: the clip playing ends after the chunk being written.
    private var cutRequested = false
    /// While true (a task runs) the stream is kept open and running on silence (`hold(_:)`).
    private var held = false
    private var thread: DedicatedThread?
    /// The open PCM; touched only by the initialiser and then the playback thread.
    private var pcm: PCM?
    /// The open PCM's buffer size in frames (same ownership as `pcm`).
    private var bufferFrames: Int
    private let onStart: @Sendable (UInt64) -> Void
    private let onOnset: @Sendable (Onset) -> Void
    private let onFinished: @Sendable (Onset) -> Void
    private let onFailure: @Sendable (ALSAError) -> Void

    /// Opens `device` for playback (S16_LE mono at `sampleRate`, ~12 ms periods), which checks
    /// that it can play, and starts the playback thread. `onStart` gets a clip's id and
    /// `onOnset` when it will be heard once its first frames are written, `onFinished` once it
    /// is all written. The PCM is closed again once nothing
    /// is due within `policy.keepOpenWindow`, and reopened ahead of the next clip. The thread
    /// asks for SCHED_FIFO at `realTimePriority` (0: none) and plays at normal priority where
    /// the process may not have it.
    public init(
        device: String, sampleRate: Int = 22_050, periodFrames: Int = 256, bufferFrames: Int = 2_048,
        openLead: Double = 0.5, keepOpenWindow: Double = 1.5, realTimePriority: Int = 10,
        logger: Logger,
        onStart: @escaping @Sendable (UInt64) -> Void = { _ in },
        onOnset: @escaping @Sendable (Onset) -> Void = { _ in },
        onFinished: @escaping @Sendable (Onset) -> Void = { _ in },
        onFailure: @escaping @Sendable (ALSAError) -> Void = { _ in }
    ) throws(ALSAError) {
        self.device = device
        self.logger = logger
        self.onStart = onStart
        self.onOnset = onOnset
        self.onFinished = onFinished
        self.onFailure = onFailure
        hardware = HardwareParameters(rate: sampleRate, channels: 1, format: .s16LE, periodFrames: periodFrames, bufferFrames: bufferFrames)
        let preRoll = PromptStreamPolicy(sampleRate: sampleRate).preRoll
        // The stream starts once the pre-roll is queued (or a clip's first chunk, of the same
        // size): starting on a single period ran the PulseAudio stream dry at once (measured,
        // docs/benchmarks.md).
        let startFrames = min(max(Int(preRoll * Double(sampleRate)), periodFrames), bufferFrames)
        software = SoftwareParameters(startThreshold: startFrames)
        let (pcm, parameters) = try Self.open(device: device, hardware: hardware, software: software, logger: logger)
        self.pcm = pcm
        self.bufferFrames = parameters.bufferFrames
        self.sampleRate = parameters.rate
        policy = PromptStreamPolicy(sampleRate: parameters.rate, openLead: openLead, preRoll: preRoll, keepOpenWindow: keepOpenWindow)
        let realTime = realTimePriority > 0 ? RealTimeRequest(priority: Int32(realTimePriority)) : nil
        thread = DedicatedThread(name: "voice-playback", realTime: realTime, onScheduled: { [logger] outcome in
            Self.logScheduling(outcome, logger: logger)
        }) { [self] heartbeat in run(heartbeat, chunkFrames: startFrames) }
    }

    /// Logs once what came of the playback thread's request for real-time scheduling: under a
    /// CPU hog on a small board a thread at normal priority can refill the device's buffer too
    /// late, and the prompt is heard late (docs/audio.md, "Voice prompts", Timing).
    private static func logScheduling(_ outcome: SchedulingOutcome, logger: Logger) {
        var metadata: Logger.Metadata = ["thread": "voice-playback"]
        for (key, value) in outcome.logFields { metadata[key] = .string(value) }
        logger.log(level: outcome.isFailure ? .warning : .info, "Voice playback scheduling: \(outcome.description)", metadata: metadata)
    }

    private static func open(
        device: String, hardware: HardwareParameters, software: SoftwareParameters, logger: Logger
    ) throws(ALSAError) -> (PCM, NegotiatedParameters) {
        let pcm = try PCM(name: device, direction: .playback, logger: logger)
        do {
            return (pcm, try pcm.configure(hardware, software: software))
        } catch {
            pcm.close()
            throw error
        }
    }

    /// Queues a clip (converted to the player's rate if needed).
    public func enqueue(_ item: Item) {
        var item = item
        if item.clip.sampleRate != sampleRate { item.clip = item.clip.resampled(to: sampleRate) }
        condition.lock()
        let position = queue.firstIndex { ($0.due ?? -.infinity) > (item.due ?? -.infinity) } ?? queue.endIndex
        queue.insert(item, at: position)
        condition.broadcast()
        condition.unlock()
    }

    /// Removes queued clips that have not started; returns the ids removed.
    @discardableResult
    public func removePending(where shouldRemove: (Item) -> Bool) -> [UInt64] {
        condition.lock()
        defer { condition.unlock() }
        let removed = queue.filter(shouldRemove).map(\.id)
        queue.removeAll(where: shouldRemove)
        condition.broadcast()
        return removed
    }

    /// Stops what `shouldCut` picks, as SageResearch's voice stops what it says when it is asked
    /// to say something new: queued clips are dropped, and the clip playing ends after the chunk
    /// being written, faded out over `cutFade` seconds so that it does not click. Returns whether
    /// a clip playing is being cut (`waitUntilCut(deadline:)` waits for it); its `onFinished`
    /// reports where it ended. A clip cut before any of it was written is dropped without notices.
    public func requestCut(where shouldCut: (Item) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        queue.removeAll(where: shouldCut)
        condition.broadcast()
        guard let playing, shouldCut(playing) else { return false }
        cutRequested = true
        return true
    }

    /// How long a cut clip fades out.
    public static let cutFade = 0.01

    /// Waits (blocking: call it from a dedicated thread) until the clip being cut has ended, at
    /// most until CLOCK_MONOTONIC `deadline`; returns whether it has.
    public func waitUntilCut(deadline: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while cutRequested {
            let left = deadline - RecordingClock.monotonic()
            guard left > 0 else { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return true
    }

    /// Waits (blocking: call it from a dedicated thread) until every clip queued now or later
    /// has been played or dropped, or until CLOCK_MONOTONIC `deadline`; returns whether
    /// everything was played out, and when the last clip will have been heard to its end (the
    /// device may still be playing it). Its `onFinished` calls have been made by then.
    public func waitUntilPlayedOut(deadline: Double) -> (playedOut: Bool, heardUntil: Double) {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || playing != nil {
            let left = deadline - RecordingClock.monotonic()
            if left <= 0 || stopRequested { return (false, heardUntil) }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return (true, heardUntil)
    }

    /// Seconds of audio queued or being played, the latest due time of a queued clip, and when
    /// the last clip played will have been heard to its end.
    public func pendingAudio() -> (seconds: Double, latestDue: Double?, heardUntil: Double) {
        condition.withLock {
            let items = queue + (playing.map { [$0] } ?? [])
            return (items.reduce(0) { $0 + $1.clip.duration }, items.compactMap(\.due).max(), heardUntil)
        }
    }

    /// When a clip queued now would be heard at the earliest (CLOCK_MONOTONIC): on a held,
    /// running stream with nothing queued or playing, after the silence already written and the
    /// device's reported delay. Nil when that is not known (the stream is not held or not
    /// running yet, or other clips come first): a session then shows its step and speaks at once.
    /// `deadline` (CLOCK_MONOTONIC): a held stream that has not run for `heldSettleTime` yet is
    /// waited for until then (blocking: call it from a dedicated thread); nil answers at once.
    public func earliestOnset(waitingUntil deadline: Double? = nil) -> Double? {
        condition.lock()
        defer { condition.unlock() }
        while held, !stopRequested, queue.isEmpty, playing == nil {
            let now = RecordingClock.monotonic()
            if let heldHeardFrom, let heldRunningSince, now - heldRunningSince >= Self.heldSettleTime {
                return max(heldHeardFrom, now)
            }
            guard let deadline, deadline > now else { return nil }
            let settled = heldRunningSince.map { $0 + Self.heldSettleTime } ?? deadline
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(deadline, settled) - now))
        }
        return nil
    }

    /// Whether `earliestOnset(waitingUntil:)` would wait: the stream is held and nothing is
    /// queued, but it has not run for `heldSettleTime` yet.
    public var isSettling: Bool {
        condition.withLock {
            guard held, !stopRequested, queue.isEmpty, playing == nil else { return false }
            return heldRunningSince.map { RecordingClock.monotonic() - $0 < Self.heldSettleTime } ?? true
        }
    }

    /// Holds the stream open and running on silence (true), from a task's start to its end, so
    /// that the device's delay is settled and measured before the first prompt; or lets it stop
    /// and close between prompts again (false). See `PromptStreamPolicy`.
    public func hold(_ held: Bool) {
        condition.lock()
        self.held = held
        condition.broadcast()
        condition.unlock()
    }

    /// Stops after the current chunk (a clip being played is cut) and closes the PCM.
    public func shutdown() async {
        requestStop()
        await thread?.finished()
    }

    private func requestStop() {
        condition.lock()
        stopRequested = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The playback thread

    private func run(_ heartbeat: ThreadHeartbeat, chunkFrames: Int) {
        let rate = Double(sampleRate)
        var stream = PromptStreamPolicy.Stream.stopped(since: RecordingClock.monotonic())
        /// When the frame after the last one written will be heard.
        var nextHeard: Double?
        /// When the device will have taken every frame written so far (its buffer empty): paces
        /// a held stream's silence apart from the device's latency. Measured only while held
        /// (`isHeld`, this pass's copy of `held`): it costs a status call per write.
        var bufferedUntil: Double?
        var isHeld = false

        /// Writes and returns when the first written frame will be heard, and whether the device
        /// reported a delay for it. The stream's estimate is never earlier than the end of what
        /// was written before (a device that is not paced reports no delay; frames still play
        /// one after another).
        func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> WriteReport {
            guard let pcm else { throw ALSAError(code: -EBADF, operation: "write", device: device, reason: "The PCM is not open") }
            heartbeat.beat()
            let result = try pcm.write(from: UnsafeRawPointer(samples.baseAddress!), frames: samples.count)
            if let gap = result.gap {
                logger.warning("Voice playback ran dry", metadata: ["seconds": "\(gap.seconds)", "reason": "\(gap.reason.rawValue)"])
            }
            let heard = max(result.firstFrameTimestamp, nextHeard ?? -.infinity)
            nextHeard = heard + Double(result.frames) / rate
            if isHeld, let status = try? pcm.status() {
                let queued = min(max(bufferFrames - status.availableFrames, 0), bufferFrames)
                if queued > 0 {
                    bufferedUntil = status.timestamp + Double(queued) / rate
                } else {
                    // Nothing queued right after a write: the device takes frames as fast as they
                    // come (ALSA's `file` plugin over `null`). The clock paces the held silence
                    // instead, or the thread would write it without end (and at real-time priority).
                    bufferedUntil = max(bufferedUntil ?? status.timestamp, status.timestamp) + Double(result.frames) / rate
                }
            }
            stream = .running(playedOutAt: heard + Double(result.frames) / rate)
            if isHeld {
                condition.withLock {
                    if heldRunningSince == nil {
                        heldRunningSince = RecordingClock.monotonic()
                        condition.broadcast()
                    }
                    heldHeardFrom = nextHeard
                }
            }
            return WriteReport(heard: heard, isDelayReported: result.isDelayReported, hadGap: result.gap != nil)
        }

        func close() {
            pcm?.close()
            pcm = nil
            nextHeard = nil
            bufferedUntil = nil
            stream = .closed
            condition.withLock { heldHeardFrom = nil; heldRunningSince = nil }
        }

        let silence = [Int16](repeating: 0, count: chunkFrames)
        while true {
            condition.lock()
            if stopRequested {
                condition.unlock()
                break
            }
            let now = RecordingClock.monotonic()
            let next = queue.first.map { $0.due.map(PromptStreamPolicy.NextClip.due) ?? .atOnce }
            isHeld = held
            if !isHeld {
                bufferedUntil = nil
                heldHeardFrom = nil
                heldRunningSince = nil
            }
            let action = policy.action(stream: stream, next: next, now: now, held: isHeld,
                                       buffered: bufferedUntil.map { max($0 - now, 0) })
            if case .wait(let until) = action {
                heartbeat.idle()
                if let until {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: until - now))
                } else {
                    condition.wait()
                }
                condition.unlock()
                continue
            }
            let item = action == .play ? queue.removeFirst() : nil
            playing = item
            condition.unlock()
            defer {
                if item != nil {
                    condition.withLock {
                        playing = nil
                        cutRequested = false
                        condition.broadcast()
                    }
                }
            }
            do {
                switch action {
                case .wait:
                    break
                case .open:
                    heartbeat.beat()
                    let (opened, parameters) = try Self.open(device: device, hardware: hardware, software: software, logger: logger)
                    pcm = opened
                    bufferFrames = parameters.bufferFrames
                    stream = .stopped(since: RecordingClock.monotonic())
                case .close:
                    close()
                case .stop:
                    // Everything written has been heard: dropping discards nothing audible,
                    // and unlike a drain it never blocks the thread.
                    heartbeat.beat()
                    try pcm?.drop()
                    try pcm?.prepare()
                    nextHeard = nil
                    bufferedUntil = nil
                    condition.withLock { heldHeardFrom = nil; heldRunningSince = nil }
                    stream = .stopped(since: RecordingClock.monotonic())
                case .writeSilence(let frames):
                    var left = frames
                    while left > 0 {
                        let count = min(left, silence.count)
                        _ = try silence.withUnsafeBufferPointer { buffer throws(ALSAError) in
                            try write(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                        }
                        left -= count
                    }
                case .play:
                    if let item { try play(item, chunkFrames: chunkFrames, rate: rate, write: write) }
                }
            } catch {
                let dropped = removePending { _ in true }
                // A held stream would reopen at once and fail again: the hold ends, and the next
                // prompt opens the device as between tasks.
                condition.withLock { held = false }
                logger.error("Voice playback failed", metadata: [
                    "device": "\(device)", "error": "\(error)", "droppedPrompts": "\(dropped.count + (item == nil ? 0 : 1))",
                ])
                close()
                onFailure(error)
            }
        }
        // Let what is queued be heard (at most one buffer) rather than cutting the last prompt.
        if case .running = stream { try? pcm?.drain() }
        close()
    }

    /// What one write of the playback thread learned.
    struct WriteReport {
        /// When the first frame written will be heard.
        var heard: Double
        /// Whether the device reported a delay for the frames written.
        var isDelayReported: Bool
        /// Whether the stream broke and was recovered just before them.
        var hadGap: Bool
    }

    /// The first chunk of a clip whose delay report checks the onset reported at its first write.
    private static let checkChunk = 2

    /// A stream that has just started reports its delay before the sound server's timing has
    /// arrived, without the sink's own latency (0.3 s early on a PulseAudio null sink that had
    /// just woken; docs/benchmarks.md, "Voice prompt onsets"). Later chunks' reports include
    /// it: a disagreement is logged, and the clip's finish carries the later onset
    /// (`OnsetMeasure.deviceDelayLaterReport`).
    private func warnIfLater(_ reported: Double, than later: Double, item: Item) {
        guard later - reported > OnsetMeasure.confirmationTolerance else { return }
        logger.warning("A voice prompt was heard later than its stream first reported", metadata: [
            "stepPath": "\(item.stepPath)", "text": "\(item.text)", "reportedOnset": "\(reported)",
            "laterEstimate": "\(later)", "seconds": "\(later - reported)",
        ])
    }

    /// Whether `next`, another step's clip, falls due before the chunk about to be written would
    /// be heard to its end (`writingUntil`): the clip playing stops for it, as it does when a
    /// step about to speak asks (`requestCut(where:)`), so that a step's later prompt is not
    /// heard behind what a step left before still says. Clips of no step ("") neither cut nor
    /// are cut this way.
    static func isOvertaken(_ playing: Item, by next: Item?, writingUntil: Double) -> Bool {
        guard let next, !next.stepPath.isEmpty, !playing.stepPath.isEmpty, next.stepPath != playing.stepPath else { return false }
        return (next.due ?? -.infinity) < writingUntil
    }

    private func play(
        _ item: Item, chunkFrames: Int, rate: Double,
        write: (UnsafeBufferPointer<Int16>) throws(ALSAError) -> WriteReport
    ) throws(ALSAError) {
        var onset: Double?
        var later: Double?
        var isFirstReported = true
        var isLaterReported = false
        var hadGap = false
        var end = RecordingClock.monotonic()
        var wasCut = false
        try item.clip.samples.withUnsafeBufferPointer { samples throws(ALSAError) in
            var offset = 0
            var chunk = 0
            while offset < samples.count {
                let count = min(chunkFrames, samples.count - offset)
                let (stopping, cutting) = condition.withLock {
                    (stopRequested, cutRequested || Self.isOvertaken(item, by: queue.first, writingUntil: end + Double(count) / rate))
                }
                if stopping { return }
                if cutting {
                    wasCut = true
                    // Nothing of it written yet: dropped, as a queued clip is.
                    guard onset != nil else { return }
                    let fade = min(max(Int(Self.cutFade * rate), 1), samples.count - offset)
                    let faded = (0..<fade).map { Int16(Double(samples[offset + $0]) * Double(fade - $0) / Double(fade)) }
                    let report = try faded.withUnsafeBufferPointer { buffer throws(ALSAError) in try write(buffer) }
                    end = report.heard + Double(fade) / rate
                    return
                }
                let report = try write(UnsafeBufferPointer(rebasing: samples[offset..<(offset + count)]))
                let heard = report.heard, reported = report.isDelayReported
                end = heard + Double(count) / rate
                hadGap = hadGap || (chunk > 0 && report.hadGap)
                // Every report from the check chunk on, until the stream breaks (a gap would
                // move the estimate by its length), places the onset again; the last one counts.
                if onset != nil, chunk >= Self.checkChunk, !hadGap {
                    later = heard - Double(offset) / rate
                    isLaterReported = reported
                }
                if onset == nil {
                    // Reported at once, so that a prompt spoken as its step ends is in the run's
                    // prompts.json before the session writes it.
                    onset = heard
                    isFirstReported = reported
                    onStart(item.id)
                    let first = OnsetMeasure.judge(first: heard, firstReported: reported, later: nil, laterReported: false)
                    onOnset(Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due, onset: heard,
                                  end: heard + Double(samples.count) / rate, measure: first.measure))
                }
                offset += count
                chunk += 1
            }
        }
        // A clip shorter than the start threshold has not started the stream by itself.
        if let pcm, try pcm.status().state == .prepared { try pcm.start() }
        if wasCut {
            logger.info("A voice prompt was cut short by another step's prompt", metadata: [
                "stepPath": "\(item.stepPath)", "text": "\(item.text)", "heardUntil": "\(end)",
            ])
            if onset == nil { return }
        }
        let best = OnsetMeasure.judge(first: onset ?? end, firstReported: isFirstReported, later: later, laterReported: isLaterReported)
        if let onset { warnIfLater(onset, than: best.onset, item: item) }
        condition.withLock { heardUntil = max(heardUntil, end) }
        onFinished(Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due, onset: best.onset, end: end,
                         measure: best.measure))
        logger.debug("Played a voice clip", metadata: [
            "stepPath": "\(item.stepPath)", "text": "\(item.text)", "onset": "\(best.onset)",
            "lateBy": "\(item.due.map { best.onset - $0 } ?? 0)", "heardBy": "\(best.measure.rawValue)",
        ])
    }
}
