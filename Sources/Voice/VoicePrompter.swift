import BlockingCalls
import Clocks
public import ALSA
import Foundation
public import Logging

/// Speaks a step's prompts at their seconds of the step timer, plays `playSound*` sounds and the
/// pause warning. One per session (or daemon); its player opens the playback PCM only around
/// prompts, or holds it running from a run's start to its end (`holdStream(_:)`,
/// `PromptStreamPolicy`).
///
/// Lifecycle per step: `preload(_:)` synthesises (or loads) the clips before the step is shown,
/// `prepare(stepPath:prompts:)` takes its timed prompts, `startTimer()` schedules them,
/// `pauseTimer()`/`resumeTimer()` shift what has not been heard yet, `endStep()` drops what is
/// left and not yet due.
public actor VoicePrompter {
    private struct PreparedPrompt {
        var prompt: SpokenPrompt
        var clip: AudioClip
        var id: UInt64
        var heard = false
    }

    private struct Step {
        var stepPath: String
        var prompts: [PreparedPrompt]
    }

    private enum State {
        case idle
        case prepared(Step)
        /// `zero` is the CLOCK_MONOTONIC time of timer second 0.
        case running(Step, zero: Double)
        case paused(Step, elapsed: Double)
        case shutDown
    }

    /// Who listens to the events: each subscriber has a stream of its own (`subscribe()`).
    private let subscribers = VoiceSubscribers()
    private let configuration: VoiceConfiguration
    private let synthesizer: SpeechSynthesizer
    private let player: PromptPlayer
    private let logger: Logger
    private var state = State.idle
    private var nextID: UInt64 = 1
    /// Counts `prepare` calls: after its awaits, only the latest one installs its step.
    private var prepareGeneration: UInt64 = 0
    private var clipCache: ClipCache
    /// Prompt ids the player has started; shared with its thread's callbacks.
    private let heardIDs = HeardPrompts()

    /// Opens the playback device to check it (on a dedicated thread: opening and configuring a
    /// PCM block); throws when it cannot be opened. The player closes it again until a prompt is
    /// near.
    public init(configuration: VoiceConfiguration, logger: Logger) async throws(ALSAError) {
        self.configuration = configuration
        self.logger = logger
        clipCache = ClipCache(budgetBytes: configuration.clipCacheBytes)
        synthesizer = SpeechSynthesizer(voice: configuration.voice, wordsPerMinute: configuration.wordsPerMinute, logger: logger)
        let subscribers = subscribers
        let heardIDs = heardIDs
        let device = configuration.playbackDevice
        do {
            player = try await BlockingCall.run("open \(device)") {
                try PromptPlayer(
                    device: device, openLead: configuration.streamOpenLead, keepOpenWindow: configuration.streamKeepOpenWindow,
                    realTimePriority: configuration.realTimePriority, logger: logger,
                    onStart: { id in heardIDs.insert(id) },
                    onOnset: { onset in
                        let offset = RecordingClock.boottimeOffset()
                        subscribers.yield(.promptStarted(
                            stepPath: onset.stepPath, text: onset.text, scheduledUptime: onset.due.map { $0 + offset },
                            onsetUptime: onset.onset + offset, measure: onset.measure))
                    },
                    onFinished: { onset in
                        let offset = RecordingClock.boottimeOffset()
                        subscribers.yield(.promptFinished(
                            stepPath: onset.stepPath, text: onset.text, onsetUptime: onset.onset + offset,
                            endUptime: onset.end + offset, measure: onset.measure))
                    },
                    onFailure: { error in
                        subscribers.yield(.playbackFailed(message: "Voice prompts were dropped: \(error). The next prompt opens the playback device again."))
                    })
            }
        } catch let error as ALSAError {
            throw error
        } catch {
            throw ALSAError(code: -EIO, operation: "open", device: device, reason: "\(error)")
        }
    }

    // MARK: Events

    /// A stream of the events from now on, for one subscriber (a session, `say`): it ends when
    /// the prompter shuts down, and a subscriber that stops listening (its task cancelled, its
    /// stream dropped) is removed without ending anyone else's. Subscribe before asking for
    /// what you want to hear about: earlier events are not kept.
    public nonisolated func subscribe() -> AsyncStream<VoiceEvent> {
        subscribers.subscribe { $0 }
    }

    /// `subscribe()` with each event mapped by `transform` as it is yielded (nil leaves it out),
    /// so an adapter needs no task of its own to forward events.
    public nonisolated func subscribe<Element: Sendable>(_ transform: @escaping @Sendable (VoiceEvent) -> Element?) -> AsyncStream<Element> {
        subscribers.subscribe(transform)
    }

    /// How many subscribers listen now (for tests and diagnostics).
    public nonisolated var subscriberCount: Int { subscribers.count }

    // MARK: Steps

    /// Synthesises or loads the clips of `prompts` ahead of their step, so that a prompt spoken
    /// when its step is shown starts at once. A clip that cannot be made is left out here; its
    /// error comes when the prompt is prepared or spoken.
    public func preload(_ prompts: [SpokenPrompt]) async {
        guard !isShutDown else { return }
        for prompt in prompts {
            _ = try? await clip(for: prompt)
        }
    }

    /// Synthesises or loads the clips of a step's prompts so that none is late for lack of time.
    /// A `prepare` for the next step while this one synthesises wins: the older one is
    /// dropped when its synthesis ends.
    public func prepare(stepPath: String, prompts: [SpokenPrompt]) async throws(VoiceError) {
        try ensureUsable()
        prepareGeneration += 1
        let generation = prepareGeneration
        await endStep()
        var prepared: [PreparedPrompt] = []
        for prompt in prompts.sorted(by: { $0.time < $1.time }) {
            let clip = try await clip(for: prompt)
            prepared.append(PreparedPrompt(prompt: prompt, clip: clip, id: takeID()))
        }
        // Re-check after the awaits: a later prepare supersedes this one, and the prompter may
        // have been shut down meanwhile.
        guard generation == prepareGeneration else { return }
        switch state {
        case .shutDown: return
        case .prepared, .running, .paused: await endStep()
        case .idle: break
        }
        guard generation == prepareGeneration, case .idle = state else { return }
        state = .prepared(Step(stepPath: stepPath, prompts: prepared))
    }

    /// Starts the step timer: prompt k is heard at `startMonotonic + time_k` (default: now).
    public func startTimer(atMonotonic startMonotonic: Double? = nil) {
        guard case .prepared(let step) = state else { return }
        let zero = startMonotonic ?? RecordingClock.monotonic()
        schedule(step, zero: zero)
        state = .running(step, zero: zero)
    }

    /// Pauses the timer: prompts not yet heard wait; with `speakWarning` the pause warning is
    /// spoken at once.
    public func pauseTimer(speakWarning: Bool) async {
        guard case .running(var step, let zero) = state else { return }
        let elapsed = RecordingClock.monotonic() - zero
        let ids = Set(step.prompts.map(\.id))
        player.removePending { ids.contains($0.id) }
        for index in step.prompts.indices where heardIDs.contains(step.prompts[index].id) {
            step.prompts[index].heard = true
        }
        state = .paused(step, elapsed: elapsed)
        if speakWarning {
            try? await speak(configuration.pauseWarning, stepPath: step.stepPath)
        }
    }

    /// Resumes the timer where it was paused.
    public func resumeTimer() {
        guard case .paused(let step, let elapsed) = state else { return }
        let zero = RecordingClock.monotonic() - elapsed
        schedule(step, zero: zero)
        state = .running(step, zero: zero)
    }

    /// When a prompt spoken now would be heard at the earliest (CLOCK_MONOTONIC): behind the
    /// held stream's silence and the device's measured delay. A session schedules a step's
    /// `start` prompt at that time and shows the step then, so the two agree on any device
    /// (docs/audio.md, "Voice prompts"). A held stream that has only just started (a run's first
    /// step) is waited for up to `seconds` until its delay reports can be trusted. Nil when it is
    /// not known (no held stream, or other prompts come first).
    public func earliestOnset(waitingUpTo seconds: Double = 0) async -> Double? {
        guard !isShutDown else { return nil }
        if let onset = player.earliestOnset() { return onset }
        // A thread to wait on only when the held stream is about to settle.
        guard seconds > 0, player.isSettling else { return nil }
        let player = player
        let deadline = RecordingClock.monotonic() + seconds
        return try? await BlockingCall.run("voice-settle") { player.earliestOnset(waitingUntil: deadline) }
    }

    /// Holds the playback stream open and running on silence while `held` (a run is going on),
    /// or lets it open only around prompts again (`PromptPlayer.hold(_:)`); only where the
    /// configuration asks for it (`holdStreamDuringRuns`).
    public func holdStream(_ held: Bool) {
        guard !isShutDown, configuration.holdStreamDuringRuns else { return }
        player.hold(held)
    }

    /// Stops what steps other than `stepPath` still say before that step speaks, as SageResearch's
    /// voice stops what it says when it is asked to say something new: a participant who moves on
    /// while a long instruction is read hears the next step's prompt on time, not behind it.
    /// Their queued clips are dropped and the clip playing ends with a short fade; this waits
    /// for that (a chunk, some tens of milliseconds, at most `longestCut`) so that the next
    /// prompt can be placed after it.
    public func interrupt(keepingStepPath stepPath: String) async {
        guard !isShutDown, player.requestCut(where: { $0.stepPath != stepPath }) else { return }
        let player = player
        let deadline = RecordingClock.monotonic() + Self.longestCut
        _ = try? await BlockingCall.run("voice-cut") { player.waitUntilCut(deadline: deadline) }
    }

    /// The longest `interrupt(keepingStepPath:)` waits for a clip to end.
    public static let longestCut = 0.25

    /// Ends the step: prompts whose second has not come are dropped. Those already due stay
    /// queued and are heard: the step reached their second, and above all its `end` prompt,
    /// due at the timer's last second, which the session counts as spoken by the timer. A
    /// playback thread that has not started them yet (a machine that stalled, a clip still
    /// playing before them) must not lose them (docs/audio.md, "Voice prompts").
    public func endStep() async {
        switch state {
        case .running(let step, let zero):
            let now = RecordingClock.monotonic()
            let notDue = Set(step.prompts.filter { !Self.isDue($0.prompt, zero: zero, at: now) }.map(\.id))
            player.removePending { notDue.contains($0.id) }
            state = .idle
        case .prepared(let step), .paused(let step, _):
            let ids = Set(step.prompts.map(\.id))
            player.removePending { ids.contains($0.id) }
            state = .idle
        case .idle, .shutDown:
            break
        }
    }

    /// Whether `prompt`'s second of a timer started at `zero` has come at `now`; a millisecond's
    /// slack, as the session's clock reads the timer's end on its own reading of the clock.
    static func isDue(_ prompt: SpokenPrompt, zero: Double, at now: Double) -> Bool {
        zero + prompt.time <= now + 0.001
    }

    private func schedule(_ step: Step, zero: Double) {
        let now = RecordingClock.monotonic()
        for prepared in step.prompts where !prepared.heard {
            // A prompt whose second has passed (a late start) is spoken at once rather than lost.
            let due = max(zero + prepared.prompt.time, now)
            player.enqueue(PromptPlayer.Item(
                id: prepared.id, stepPath: step.stepPath, text: prepared.prompt.text, clip: prepared.clip, due: due))
        }
    }

    // MARK: At once

    /// Speaks `text` as soon as possible (after anything already playing); `key` selects a
    /// recorded clip as for step prompts. `scheduledAtMonotonic` is when it was meant to be
    /// heard (a step's `start` prompt: when the step was shown), reported as its
    /// `scheduledUptime` so that its lateness shows; nil reports none.
    public func speak(_ text: String, stepPath: String = "", key: String? = nil, scheduledAtMonotonic: Double? = nil) async throws(VoiceError) {
        try ensureUsable()
        let clip = try await clip(for: SpokenPrompt(time: 0, text: text, key: key))
        guard case .shutDown = state else {
            player.enqueue(PromptPlayer.Item(id: takeID(), stepPath: stepPath, text: text, clip: clip, due: scheduledAtMonotonic))
            return
        }
    }

    /// Waits until what is queued (prompts spoken at once, sounds, a step's timed prompts not
    /// dropped by `endStep()`) has been heard to its end, so that the next step shows after the
    /// step's `end` prompt and a run's last prompts are reported before its files are written;
    /// then yields `playedOut(token:)` to every subscriber, after the notices of those prompts,
    /// and returns the token. A device that stops taking audio does not hold this up past the
    /// queued audio's length plus `streamOpenLead` and one second.
    @discardableResult
    public func finishSpeaking() async -> UInt64 {
        let token = takeID()
        if !isShutDown {
            let player = player
            let pending = player.pendingAudio()
            let start = max(RecordingClock.monotonic(), pending.latestDue ?? 0)
            let deadline = start + pending.seconds + configuration.streamOpenLead + 1
            var heardUntil = pending.heardUntil
            // A thread to wait on only when there is something to wait for (a move forward from
            // a step whose end prompt was already written, and most run ends, have nothing).
            if pending.seconds > 0 {
                let result = try? await BlockingCall.run("voice-played-out") { player.waitUntilPlayedOut(deadline: deadline) }
                if result?.playedOut != true {
                    logger.warning("Voice prompts were still playing when the wait for them ended", metadata: ["queuedSeconds": "\(pending.seconds)"])
                }
                heardUntil = result?.heardUntil ?? heardUntil
            }
            // The last clip is all written; the device plays what it still holds of it (up to its
            // buffer and latency), and what comes next should not start under it.
            let left = min(heardUntil, deadline) - RecordingClock.monotonic()
            if left > 0 { try? await Task.sleep(for: .seconds(left)) }
        }
        subscribers.yield(.playedOut(token: token))
        return token
    }

    /// Which `playSound*` sound to play.
    public enum Sound: Sendable {
        case start, finish
    }

    /// Plays the start or finish sound at once (a configured WAV, else the built-in beep).
    public func play(_ sound: Sound, stepPath: String = "") async throws(VoiceError) {
        try ensureUsable()
        let path = sound == .start ? configuration.startSound : configuration.finishSound
        let clip: AudioClip
        if let path {
            clip = try await loadClip(path)
        } else {
            clip = sound == .start ? AudioClip.startSound(sampleRate: player.sampleRate) : AudioClip.finishSound(sampleRate: player.sampleRate)
        }
        guard case .shutDown = state else {
            player.enqueue(PromptPlayer.Item(id: takeID(), stepPath: stepPath, text: "<\(sound == .start ? "start" : "finish") sound>", clip: clip, due: nil))
            return
        }
    }

    /// Stops playback and closes the device; the prompter cannot be used afterwards.
    public func shutdown() async {
        state = .shutDown
        await player.shutdown()
        subscribers.finishAll()
    }

    // MARK: Clips

    private func ensureUsable() throws(VoiceError) {
        if isShutDown { throw VoiceError("The voice prompter was shut down; create a new one.") }
    }

    private var isShutDown: Bool {
        if case .shutDown = state { return true }
        return false
    }

    private func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    private func clip(for prompt: SpokenPrompt) async throws(VoiceError) -> AudioClip {
        if let path = prompt.key.flatMap({ configuration.clips[$0] }) ?? configuration.clips[prompt.text] {
            return try await loadClip(path)
        }
        let key = "tts:" + prompt.text
        if let cached = clipCache.clip(for: key) { return cached }
        let clip = try await synthesizer.synthesize(prompt.text).resampled(to: player.sampleRate)
        clipCache.insert(clip, for: key)
        return clip
    }

    /// Reads a WAV clip on a dedicated thread (a file read never runs on the actor).
    private func loadClip(_ path: String) async throws(VoiceError) -> AudioClip {
        if let cached = clipCache.clip(for: "wav:" + path) { return cached }
        let data: Data?
        do {
            data = try await BlockingCall.run("read \(path)") { FileManager.default.contents(atPath: path) }
        } catch {
            data = nil
        }
        guard let data else {
            throw VoiceError("The prompt clip \(path) cannot be read; check the path in the voice configuration.")
        }
        let clip = try AudioClip(wavBytes: [UInt8](data)).resampled(to: player.sampleRate)
        clipCache.insert(clip, for: "wav:" + path)
        return clip
    }
}
