/// What one `PCM.write` did.
public struct WriteResult: Sendable, Hashable {
    /// Frames accepted.
    public var frames: Int
    /// CLOCK_MONOTONIC seconds at which the first of these frames will be heard (status time
    /// plus the delay queued ahead of it).
    public var firstFrameTimestamp: Double
    /// Set when the stream ran dry and was recovered before these frames.
    public var gap: StreamGap?

    public init(frames: Int, firstFrameTimestamp: Double, gap: StreamGap?) {
        self.frames = frames
        self.firstFrameTimestamp = firstFrameTimestamp
        self.gap = gap
    }
}
