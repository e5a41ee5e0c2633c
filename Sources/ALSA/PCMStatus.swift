/// A snapshot of a running PCM (`snd_pcm_status`): when it was taken and how far the stream is.
public struct PCMStatus: Sendable, Hashable {
    public var state: PCMState
    /// CLOCK_MONOTONIC seconds at which the snapshot was taken (the status's high-resolution
    /// timestamp).
    public var timestamp: Double
    /// CLOCK_MONOTONIC seconds of the last start, stop or xrun.
    public var triggerTimestamp: Double
    /// Frames ready to read (capture) or free to write (playback).
    public var availableFrames: Int
    /// Frames between the application pointer and the converter: for playback, frames queued
    /// ahead of the one now being heard.
    public var delayFrames: Int

    public init(state: PCMState, timestamp: Double, triggerTimestamp: Double, availableFrames: Int, delayFrames: Int) {
        self.state = state
        self.timestamp = timestamp
        self.triggerTimestamp = triggerTimestamp
        self.availableFrames = availableFrames
        self.delayFrames = delayFrames
    }
}
