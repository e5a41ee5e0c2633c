import ALSA
import BlockingCalls
import Clocks
import Foundation
import Logging

/// `PromptPlayer`'s playback thread: the PCM and everything known about the stream belong to
/// it alone. It is made on that thread from what the player hands over (`Setup`) and never
/// leaves it, so no lock guards the stream; what it shares with the player's callers is the
/// `PromptQueue` under its `ConditionGuarded` lock.
struct PromptPlayback {
    /// What the player hands to its thread: all of it Sendable, the PCM included (opened by the
    /// player's initialiser to check that the device plays, then never touched by the player).
    struct Setup: Sendable {
        var pcm: PCM
        var bufferFrames: Int
        var device: String
        var hardware: HardwareParameters
        var software: SoftwareParameters
        var policy: PromptStreamPolicy
        /// Frames per write: the pre-roll, the amount that starts the stream.
        var chunkFrames: Int
        var logger: Logger
        var shared: ConditionGuarded<PromptQueue>
        var callbacks: Callbacks
    }

    /// Where the thread reports what it played.
    struct Callbacks: Sendable {
        var onStart: @Sendable (UInt64) -> Void
        var onOnset: @Sendable (PromptPlayer.Onset) -> Void
        var onFinished: @Sendable (PromptPlayer.Onset) -> Void
        var onFailure: @Sendable (ALSAError) -> Void
    }

    private let setup: Setup
    private let rate: Double
    /// The open PCM (nil while closed between prompts).
    private var pcm: PCM?
    private var bufferFrames: Int
    private var stream: PromptStreamPolicy.Stream
    /// When the frame after the last one written will be heard.
    private var nextHeard: Double?
    /// When the device will have taken every frame written so far (its buffer empty): paces a
    /// held stream's silence apart from the device's latency. Measured only while held: it
    /// costs a status call per write.
    private var bufferedUntil: Double?
    /// This pass's copy of `PromptQueue.held`.
    private var isHeld = false
    private let heartbeat: ThreadHeartbeat

    init(_ setup: Setup, heartbeat: ThreadHeartbeat) {
        self.setup = setup
        self.heartbeat = heartbeat
        rate = Double(setup.policy.sampleRate)
        pcm = setup.pcm
        bufferFrames = setup.bufferFrames
        stream = .stopped(since: RecordingClock.monotonic())
    }

    private var logger: Logger { setup.logger }
    private var shared: ConditionGuarded<PromptQueue> { setup.shared }

    /// Opens `device` for playback with the player's parameters.
    static func open(
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

    // MARK: The loop

    /// Plays until the player shuts down, then lets what is queued in the device be heard and
    /// closes the PCM.
    mutating func run() {
        let silence = [Int16](repeating: 0, count: setup.chunkFrames)
        while let next = nextAction() {
            let (action, item) = next
            do {
                switch action {
                case .wait:
                    break
                case .open:
                    heartbeat.beat()
                    let (opened, parameters) = try Self.open(device: setup.device, hardware: setup.hardware,
                                                             software: setup.software, logger: logger)
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
                    shared.withLock { $0.forgetHeldStream() }
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
                    if let item { try play(item) }
                }
            } catch {
                fail(error, droppingAlso: item)
            }
            if item != nil {
                shared.withLock {
                    $0.playing = nil
                    $0.cutRequested = false
                }
            }
        }
        // Let what is queued be heard (at most one buffer) rather than cutting the last prompt.
        if case .running = stream { try? pcm?.drain() }
        close()
    }

    /// Waits until the policy asks for something other than waiting, and returns it with the clip
    /// taken from the queue to play (marked as playing); nil once the player shuts down.
    private mutating func nextAction() -> (PromptStreamPolicy.Action, PromptPlayer.Item?)? {
        let stream = self.stream, policy = setup.policy, heartbeat = self.heartbeat
        var bufferedUntil = self.bufferedUntil
        let (decision, held) = shared.wait(now: RecordingClock.monotonic) { queue -> ConditionGuarded<PromptQueue>.Decision<((PromptStreamPolicy.Action, PromptPlayer.Item?)?, Bool)> in
            if queue.stopRequested { return .done((nil, queue.held)) }
            let now = RecordingClock.monotonic()
            if !queue.held {
                bufferedUntil = nil
                queue.forgetHeldStream()
            }
            let next = queue.waiting.first.map { $0.due.map(PromptStreamPolicy.NextClip.due) ?? .atOnce }
            let action = policy.action(stream: stream, next: next, now: now, held: queue.held,
                                       buffered: bufferedUntil.map { max($0 - now, 0) })
            if case .wait(let until) = action {
                heartbeat.idle()
                return .wait(until: until)
            }
            let item = action == .play ? queue.waiting.removeFirst() : nil
            queue.playing = item
            return .done(((action, item), queue.held))
        }
        isHeld = held
        self.bufferedUntil = bufferedUntil
        return decision
    }

    /// A failed call drops every clip queued (and `item`, if one was playing); a held stream
    /// would reopen at once and fail again, so the hold ends and the next prompt opens the device
    /// as between tasks.
    private mutating func fail(_ error: ALSAError, droppingAlso item: PromptPlayer.Item?) {
        let dropped = shared.withLock { queue -> Int in
            let count = queue.waiting.count
            queue.waiting.removeAll()
            queue.held = false
            return count
        }
        logger.error("Voice playback failed", metadata: [
            "device": "\(setup.device)", "error": "\(error)", "droppedPrompts": "\(dropped + (item == nil ? 0 : 1))",
        ])
        close()
        setup.callbacks.onFailure(error)
    }

    private mutating func close() {
        pcm?.close()
        pcm = nil
        nextHeard = nil
        bufferedUntil = nil
        stream = .closed
        shared.withLock { $0.forgetHeldStream() }
    }

    // MARK: Writing

    /// What one write learned.
    struct WriteReport {
        /// When the first frame written will be heard.
        var heard: Double
        /// Whether the device reported a delay for the frames written.
        var isDelayReported: Bool
        /// Whether the stream broke and was recovered just before them.
        var hadGap: Bool
    }

    /// Writes and returns when the first written frame will be heard, and whether the device
    /// reported a delay for it. The estimate is never earlier than the end of what was written
    /// before (a device that is not paced reports no delay; frames still play one after another).
    private mutating func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) -> WriteReport {
        guard let pcm else { throw ALSAError(code: -EBADF, operation: "write", device: setup.device, reason: "The PCM is not open") }
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
        if isHeld, let nextHeard {
            shared.withLock { $0.heldStreamWrote(heardFrom: nextHeard, now: RecordingClock.monotonic()) }
        }
        return WriteReport(heard: heard, isDelayReported: result.isDelayReported, hadGap: result.gap != nil)
    }

    // MARK: One clip

    /// The first chunk of a clip whose delay report checks the onset reported at its first write.
    private static let checkChunk = 2

    /// Plays `item` chunk by chunk, stopping early for a cut, an overtaking clip or shutdown,
    /// and reports its onset (at the first write, then the best measure once played).
    private mutating func play(_ item: PromptPlayer.Item) throws(ALSAError) {
        let chunkFrames = setup.chunkFrames, rate = self.rate
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
                let writingUntil = end + Double(count) / rate
                let (stopping, cutting) = shared.withLock { queue in
                    (queue.stopRequested,
                     queue.cutRequested || PromptPlayer.isOvertaken(item, by: queue.waiting.first, writingUntil: writingUntil))
                }
                if stopping { return }
                if cutting {
                    wasCut = true
                    // Nothing of it written yet: dropped, as a queued clip is.
                    guard onset != nil else { return }
                    let fade = min(max(Int(PromptPlayer.cutFade * rate), 1), samples.count - offset)
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
                    setup.callbacks.onStart(item.id)
                    let first = OnsetMeasure.judge(first: heard, firstReported: reported, later: nil, laterReported: false)
                    setup.callbacks.onOnset(PromptPlayer.Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due,
                                                               onset: heard, end: heard + Double(samples.count) / rate,
                                                               measure: first.measure))
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
        shared.withLock { $0.heardUntil = max($0.heardUntil, end) }
        setup.callbacks.onFinished(PromptPlayer.Onset(id: item.id, stepPath: item.stepPath, text: item.text, due: item.due,
                                                      onset: best.onset, end: end, measure: best.measure))
        logger.debug("Played a voice clip", metadata: [
            "stepPath": "\(item.stepPath)", "text": "\(item.text)", "onset": "\(best.onset)",
            "lateBy": "\(item.due.map { best.onset - $0 } ?? 0)", "heardBy": "\(best.measure.rawValue)",
        ])
    }

    /// A stream that has just started reports its delay before the sound server's timing has
    /// arrived, without the sink's own latency (0.3 s early on a PulseAudio null sink that had
    /// just woken; docs/benchmarks.md, "Voice prompt onsets"). Later chunks' reports include
    /// it: a disagreement is logged, and the clip's finish carries the later onset
    /// (`OnsetMeasure.deviceDelayLaterReport`).
    private func warnIfLater(_ reported: Double, than later: Double, item: PromptPlayer.Item) {
        guard later - reported > OnsetMeasure.confirmationTolerance else { return }
        logger.warning("A voice prompt was heard later than its stream first reported", metadata: [
            "stepPath": "\(item.stepPath)", "text": "\(item.text)", "reportedOnset": "\(reported)",
            "laterEstimate": "\(later)", "seconds": "\(later - reported)",
        ])
    }
}
