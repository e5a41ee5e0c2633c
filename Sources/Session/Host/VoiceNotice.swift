/// What a `SessionVoice` reports.
public enum VoiceNotice: Sendable, Hashable {
    /// A prompt started to be heard. Times are CLOCK_BOOTTIME seconds; `scheduledUptime` is nil
    /// for prompts spoken at once. Texts in angle brackets (`<start sound>`) are sounds.
    /// `heardBy` says how the onset was measured (prompts.json's `heardBy`, docs/audio.md).
    case promptStarted(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double, heardBy: String)
    /// A prompt's last sample was heard (CLOCK_BOOTTIME seconds), with its onset by the best
    /// measure the device gave, which may differ from the one `promptStarted` reported.
    case promptFinished(stepPath: String, text: String, onsetUptime: Double, endUptime: Double, heardBy: String)
    /// Playback failed; the recording goes on.
    case playbackFailed(message: String)
    /// What was queued when `SessionVoice.finishSpeaking()` returned `token` has been played;
    /// the notices about it came before this one.
    case playedOut(token: UInt64)

    /// The step path of a prompt's notice; nil for the others.
    public var stepPath: String? {
        switch self {
        case .promptStarted(let stepPath, _, _, _, _), .promptFinished(let stepPath, _, _, _, _): stepPath
        case .playbackFailed, .playedOut: nil
        }
    }
}
