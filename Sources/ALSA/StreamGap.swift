/// A stretch of audio lost to an xrun or a suspend, recovered with `snd_pcm_recover`.
public struct StreamGap: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// Capture overrun: the reader was too slow and the ring buffer overflowed.
        case overrun
        /// Playback underrun: the writer was too slow and the device ran dry.
        case underrun
        /// The system suspended and the stream had to be resumed or restarted.
        case suspended
    }

    public var reason: Reason
    /// CLOCK_MONOTONIC seconds when the stream broke (ALSA's trigger timestamp of the xrun).
    public var startTimestamp: Double
    /// Seconds of audio that never reached the application (capture) or the speaker (playback),
    /// measured from the stream timestamps on both sides of the gap.
    public var seconds: Double

    public init(reason: Reason, startTimestamp: Double, seconds: Double) {
        self.reason = reason
        self.startTimestamp = startTimestamp
        self.seconds = seconds
    }
}
