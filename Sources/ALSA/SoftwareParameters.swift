/// Software parameters: wake-up and start/stop thresholds. Timestamps are always enabled on
/// CLOCK_MONOTONIC so that `PCMStatus` times can be converted to CLOCK_BOOTTIME.
public struct SoftwareParameters: Sendable, Hashable {
    /// Frames that must be available before a blocking call returns; nil = one period.
    public var availableMinimum: Int?
    /// Frames (queued for playback) that start the stream; nil = ALSA's default
    /// (capture starts on the first read; playback once the buffer is full).
    public var startThreshold: Int?

    public init(availableMinimum: Int? = nil, startThreshold: Int? = nil) {
        self.availableMinimum = availableMinimum
        self.startThreshold = startThreshold
    }
}
