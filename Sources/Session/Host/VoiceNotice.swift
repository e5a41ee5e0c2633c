/// What a `SessionVoice` reports.
public enum VoiceNotice: Sendable, Hashable {
    /// A prompt started to be heard. Times are CLOCK_BOOTTIME seconds; `scheduledUptime` is nil
    /// for prompts spoken at once. Texts in angle brackets (`<start sound>`) are sounds.
    case promptStarted(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double)
    /// A prompt's last sample was heard (CLOCK_BOOTTIME seconds).
    case promptFinished(stepPath: String, text: String, endUptime: Double)
    /// Playback failed; the recording goes on.
    case playbackFailed(message: String)
}
