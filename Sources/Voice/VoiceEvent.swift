/// What the voice prompter reports.
public enum VoiceEvent: Sendable, Hashable {
    /// A prompt started to be heard. Times are CLOCK_BOOTTIME seconds (`uptime`);
    /// `scheduledUptime` is nil for prompts spoken at once (sounds, warnings, `say`). Reported
    /// at the clip's first write: `measure` is the first report's.
    case promptStarted(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double, measure: OnsetMeasure)
    /// A prompt finished playing, with its onset by the best measure the device gave (a later
    /// report may have moved it, `OnsetMeasure.deviceDelayLaterReport`).
    case promptFinished(stepPath: String, text: String, onsetUptime: Double, endUptime: Double, measure: OnsetMeasure)
    /// Playback failed: the prompts queued then are dropped and the device is closed; the next
    /// prompt opens it again. The recording goes on.
    case playbackFailed(message: String)
    /// What was queued when `VoicePrompter.finishSpeaking()` was called has been played (or
    /// its wait gave up): every notice about it came before this one.
    case playedOut(token: UInt64)
}
