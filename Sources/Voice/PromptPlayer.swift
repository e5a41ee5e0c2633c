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
///
/// The player's callers and its playback thread share only the `PromptQueue`, under one
/// condition lock; the PCM and the stream's figures belong to the thread (`PromptPlayback`).
public final class PromptPlayer: Sendable {
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
    private let shared = ConditionGuarded(PromptQueue())
    private let thread: DedicatedThread
    /// How long a held stream runs before its delay reports are trusted to place a clip: a
    /// stream that has just started reports its delay without the sound server's own latency
    /// (a 250 ms device's first prompt was heard 207 ms late when placed by them).
    public static let heldSettleTime = 0.5

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
        let hardware = HardwareParameters(rate: sampleRate, channels: 1, format: .s16LE, periodFrames: periodFrames, bufferFrames: bufferFrames)
        let preRoll = PromptStreamPolicy(sampleRate: sampleRate).preRoll
        // The stream starts once the pre-roll is queued (or a clip's first chunk, of the same
        // size): starting on a single period ran the PulseAudio stream dry at once (measured,
        // docs/benchmarks.md).
        let startFrames = min(max(Int(preRoll * Double(sampleRate)), periodFrames), bufferFrames)
        let software = SoftwareParameters(startThreshold: startFrames)
        let (pcm, parameters) = try PromptPlayback.open(device: device, hardware: hardware, software: software, logger: logger)
        self.sampleRate = parameters.rate
        policy = PromptStreamPolicy(sampleRate: parameters.rate, openLead: openLead, preRoll: preRoll, keepOpenWindow: keepOpenWindow)
        // From here the PCM is the playback thread's: the player keeps no reference to it.
        let setup = PromptPlayback.Setup(
            pcm: pcm, bufferFrames: parameters.bufferFrames, device: device, hardware: hardware, software: software,
            policy: policy, chunkFrames: startFrames, logger: logger, shared: shared,
            callbacks: .init(onStart: onStart, onOnset: onOnset, onFinished: onFinished, onFailure: onFailure))
        let realTime = realTimePriority > 0 ? RealTimeRequest(priority: Int32(realTimePriority)) : nil
        thread = DedicatedThread(name: "voice-playback", realTime: realTime, onScheduled: { [logger] outcome in
            Self.logScheduling(outcome, logger: logger)
        }) { heartbeat in
            var playback = PromptPlayback(setup, heartbeat: heartbeat)
            playback.run()
        }
    }

    /// Logs once what came of the playback thread's request for real-time scheduling: under a
    /// CPU hog on a small board a thread at normal priority can refill the device's buffer too
    /// late, and the prompt is heard late (docs/audio.md, "Voice prompts", Timing).
    private static func logScheduling(_ outcome: SchedulingOutcome, logger: Logger) {
        var metadata: Logger.Metadata = ["thread": "voice-playback"]
        for (key, value) in outcome.logFields { metadata[key] = .string(value) }
        logger.log(level: outcome.isFailure ? .warning : .info, "Voice playback scheduling: \(outcome.description)", metadata: metadata)
    }

    /// Queues a clip (converted to the player's rate if needed).
    public func enqueue(_ item: Item) {
        var item = item
        if item.clip.sampleRate != sampleRate { item.clip = item.clip.resampled(to: sampleRate) }
        shared.withLock { $0.insert(item) }
    }

    /// Removes queued clips that have not started; returns the ids removed.
    @discardableResult
    public func removePending(where shouldRemove: (Item) -> Bool) -> [UInt64] {
        shared.withLock { queue in
            let removed = queue.waiting.filter(shouldRemove).map(\.id)
            queue.waiting.removeAll(where: shouldRemove)
            return removed
        }
    }

    /// Stops what `shouldCut` picks, as SageResearch's voice stops what it says when it is asked
    /// to say something new: queued clips are dropped, and the clip playing ends after the chunk
    /// being written, faded out over `cutFade` seconds so that it does not click. Returns whether
    /// a clip playing is being cut (`waitUntilCut(deadline:)` waits for it); its `onFinished`
    /// reports where it ended. A clip cut before any of it was written is dropped without notices.
    public func requestCut(where shouldCut: (Item) -> Bool) -> Bool {
        shared.withLock { queue in
            queue.waiting.removeAll(where: shouldCut)
            guard let playing = queue.playing, shouldCut(playing) else { return false }
            queue.cutRequested = true
            return true
        }
    }

    /// How long a cut clip fades out.
    public static let cutFade = 0.01

    /// Waits (blocking: call it from a dedicated thread) until the clip being cut has ended, at
    /// most until CLOCK_MONOTONIC `deadline`; returns whether it has.
    public func waitUntilCut(deadline: Double) -> Bool {
        shared.wait(now: RecordingClock.monotonic) { queue in
            if !queue.cutRequested { return .done(true) }
            return RecordingClock.monotonic() < deadline ? .wait(until: deadline) : .done(false)
        }
    }

    /// Waits (blocking: call it from a dedicated thread) until every clip queued now or later
    /// has been played or dropped, or until CLOCK_MONOTONIC `deadline`; returns whether
    /// everything was played out, and when the last clip will have been heard to its end (the
    /// device may still be playing it). Its `onFinished` calls have been made by then.
    public func waitUntilPlayedOut(deadline: Double) -> (playedOut: Bool, heardUntil: Double) {
        shared.wait(now: RecordingClock.monotonic) { queue in
            if queue.isIdle { return .done((true, queue.heardUntil)) }
            if RecordingClock.monotonic() >= deadline || queue.stopRequested { return .done((false, queue.heardUntil)) }
            return .wait(until: deadline)
        }
    }

    /// Seconds of audio queued or being played, the latest due time of a queued clip, and when
    /// the last clip played will have been heard to its end.
    public func pendingAudio() -> (seconds: Double, latestDue: Double?, heardUntil: Double) {
        shared.withLock { queue in
            let items = queue.waiting + (queue.playing.map { [$0] } ?? [])
            return (items.reduce(0) { $0 + $1.clip.duration }, items.compactMap(\.due).max(), queue.heardUntil)
        }
    }

    /// When a clip queued now would be heard at the earliest (CLOCK_MONOTONIC): on a held,
    /// running stream with nothing queued or playing, after the silence already written and the
    /// device's reported delay. Nil when that is not known (the stream is not held or not
    /// running yet, or other clips come first): a session then shows its step and speaks at once.
    /// `deadline` (CLOCK_MONOTONIC): a held stream that has not run for `heldSettleTime` yet is
    /// waited for until then (blocking: call it from a dedicated thread); nil answers at once.
    public func earliestOnset(waitingUntil deadline: Double? = nil) -> Double? {
        shared.wait(now: RecordingClock.monotonic) { queue in
            guard queue.held, !queue.stopRequested, queue.isIdle else { return .done(nil) }
            let now = RecordingClock.monotonic()
            if let heardFrom = queue.heldHeardFrom, let since = queue.heldRunningSince, now - since >= Self.heldSettleTime {
                return .done(max(heardFrom, now))
            }
            guard let deadline, deadline > now else { return .done(nil) }
            let settled = queue.heldRunningSince.map { $0 + Self.heldSettleTime } ?? deadline
            return .wait(until: min(deadline, settled))
        }
    }

    /// Whether `earliestOnset(waitingUntil:)` would wait: the stream is held and nothing is
    /// queued, but it has not run for `heldSettleTime` yet.
    public var isSettling: Bool {
        shared.withLock { queue in
            guard queue.held, !queue.stopRequested, queue.isIdle else { return false }
            return queue.heldRunningSince.map { RecordingClock.monotonic() - $0 < Self.heldSettleTime } ?? true
        }
    }

    /// Holds the stream open and running on silence (true), from a task's start to its end, so
    /// that the device's delay is settled and measured before the first prompt; or lets it stop
    /// and close between prompts again (false). See `PromptStreamPolicy`.
    public func hold(_ held: Bool) {
        shared.withLock { $0.held = held }
    }

    /// Stops after the current chunk (a clip being played is cut) and closes the PCM.
    public func shutdown() async {
        shared.withLock { $0.stopRequested = true }
        await thread.finished()
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
}
