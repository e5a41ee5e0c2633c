/// What a session needs of a voice (docs/session.md, "Voice and quality"): the host adapts its
/// prompter to it (the daemon adapts Voice's `VoicePrompter`), so the session speaks without
/// knowing how. One step at a time: `preload` before the step shows, `prepare` its timed
/// prompts, `startTimer`/`pauseTimer`/`resumeTimer` with the step timer, `endStep` when it is left.
public protocol SessionVoice: Sendable {
    /// What the voice reports from now on, a stream of its own for each call (each session of
    /// a daemon subscribes once); it ends when the caller stops listening or the voice ends.
    func notices() -> AsyncStream<VoiceNotice>
    /// Makes the clips of `prompts` ready, so nothing is left to make once the step shows.
    func preload(_ prompts: [StepPrompt]) async
    /// Takes the timed prompts of the step at `stepPath`; they wait for `startTimer`.
    func prepare(stepPath: String, prompts: [StepPrompt]) async throws
    /// The step timer started at CLOCK_MONOTONIC `atMonotonic` (now when nil).
    func startTimer(atMonotonic: Double?) async
    /// The step timer paused; with `speakWarning` the pause warning is spoken.
    func pauseTimer(speakWarning: Bool) async
    func resumeTimer() async
    /// The step is left: what it had queued is dropped.
    func endStep() async
    /// The step at `stepPath` is about to speak: what other steps still say stops (queued
    /// prompts dropped, the one playing cut short), as SageResearch's voice stops speaking when
    /// asked to say something new.
    func interrupt(keepingStepPath stepPath: String) async
    /// Waits until what was handed to `speak` and `play` has been heard (bounded by its length),
    /// then reports `playedOut(token:)` through `notices()` after every notice about it, and
    /// returns the token: the session waits for that notice before writing prompts.json.
    func finishSpeaking() async -> UInt64
    /// While `held` (from a run's start to its end) the playback stream stays open and running,
    /// so prompts are placed against a settled, measured device delay; released, it opens only
    /// around prompts again.
    func holdStream(_ held: Bool) async
    /// When a prompt spoken now would be heard at the earliest (CLOCK_MONOTONIC), as the held
    /// stream measures it, waiting up to `seconds` for a stream that has only just started to
    /// settle; nil when not known. A step's `start` prompt is scheduled then and the step shown
    /// at that moment.
    func earliestOnset(waitingUpTo seconds: Double) async -> Double?
    /// Speaks `text` now (scheduled at `scheduledAtMonotonic` for prompts.json, when given).
    func speak(_ text: String, stepPath: String, key: String?, scheduledAtMonotonic: Double?) async throws
    /// Plays the step's start or finish sound.
    func play(_ sound: StepSound, stepPath: String) async throws
}
