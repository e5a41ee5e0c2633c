/// What the voice prompter reports.
public enum VoiceEvent: Sendable, Hashable {
    /// A prompt started to be heard. Times are CLOCK_BOOTTIME seconds (`uptime`);
    /// `scheduledUptime` is nil for prompts spoken at once (sounds, warnings, `say`).
    case promptStarted(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double)
    /// A prompt finished playing.
    case promptFinished(stepPath: String, text: String, endUptime: Double)
    /// Playback failed; prompts are silent from now on. The recording goes on.
    case playbackFailed(message: String)
}
