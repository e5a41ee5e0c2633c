/// What the voice prompter reports.
public enum VoiceEvent: Sendable, Hashable {
    /// A prompt started to be heard. Times are CLOCK_BOOTTIME seconds (`uptime`);
    /// `scheduledUptime` is nil for prompts spoken at once (sounds, warnings, `say`).
    case promptStarted(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double)
    /// A prompt finished playing.
    case promptFinished(stepPath: String, text: String, endUptime: Double)
    /// Playback failed: the prompts queued then are dropped and the device is closed; the next
    /// prompt opens it again. The recording goes on.
    case playbackFailed(message: String)
}
