public import Session
public import Voice

/// Voice's prompter as the voice a task session speaks with (Session's `SessionVoice`,
/// docs/session.md, "Voice and quality").
public struct PrompterVoice: SessionVoice {
    public let prompter: VoicePrompter

    public init(_ prompter: VoicePrompter) {
        self.prompter = prompter
    }

    /// A stream of its own for each session: one session ending (its stream cancelled) leaves
    /// the prompter's later subscribers untouched (docs/session.md, "Voice and quality").
    public func notices() -> AsyncStream<VoiceNotice> {
        prompter.subscribe { event -> VoiceNotice? in
            switch event {
            case .promptStarted(let stepPath, let text, let scheduled, let onset, let measure):
                .promptStarted(stepPath: stepPath, text: text, scheduledUptime: scheduled, onsetUptime: onset, heardBy: measure.rawValue)
            case .promptFinished(let stepPath, let text, let onset, let end, let measure):
                .promptFinished(stepPath: stepPath, text: text, onsetUptime: onset, endUptime: end, heardBy: measure.rawValue)
            case .playbackFailed(let message):
                .playbackFailed(message: message)
            case .playedOut(let token):
                .playedOut(token: token)
            }
        }
    }

    public func preload(_ prompts: [StepPrompt]) async {
        await prompter.preload(prompts.map(Self.spoken))
    }

    public func prepare(stepPath: String, prompts: [StepPrompt]) async throws {
        try await prompter.prepare(stepPath: stepPath, prompts: prompts.map(Self.spoken))
    }

    public func startTimer(atMonotonic: Double?) async {
        await prompter.startTimer(atMonotonic: atMonotonic)
    }

    public func pauseTimer(speakWarning: Bool) async {
        await prompter.pauseTimer(speakWarning: speakWarning)
    }

    public func resumeTimer() async {
        await prompter.resumeTimer()
    }

    public func endStep() async {
        await prompter.endStep()
    }

    public func interrupt(keepingStepPath stepPath: String) async {
        await prompter.interrupt(keepingStepPath: stepPath)
    }

    public func finishSpeaking() async -> UInt64 {
        await prompter.finishSpeaking()
    }

    public func holdStream(_ held: Bool) async {
        await prompter.holdStream(held)
    }

    public func earliestOnset(waitingUpTo seconds: Double) async -> Double? {
        await prompter.earliestOnset(waitingUpTo: seconds)
    }

    public func speak(_ text: String, stepPath: String, key: String?, scheduledAtMonotonic: Double?) async throws {
        try await prompter.speak(text, stepPath: stepPath, key: key, scheduledAtMonotonic: scheduledAtMonotonic)
    }

    public func play(_ sound: StepSound, stepPath: String) async throws {
        try await prompter.play(sound == .finish ? .finish : .start, stepPath: stepPath)
    }

    static func spoken(_ prompt: StepPrompt) -> SpokenPrompt {
        SpokenPrompt(time: prompt.time, text: prompt.text, key: prompt.key)
    }
}
