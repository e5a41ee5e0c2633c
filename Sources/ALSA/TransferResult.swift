/// What one `PCM.read` or `PCM.write` moved.
public struct TransferResult: Sendable, Hashable {
    /// Frames read into, or accepted from, the buffer.
    public var frames: Int
    /// CLOCK_MONOTONIC seconds of the first of these frames: when it was captured (read), or
    /// when it will be heard, the status time plus the delay queued ahead of it (write).
    public var firstFrameTimestamp: Double
    /// Set when the stream broke (overrun or underrun) and was recovered just before these frames.
    public var gap: StreamGap?

    public init(frames: Int, firstFrameTimestamp: Double, gap: StreamGap?) {
        self.frames = frames
        self.firstFrameTimestamp = firstFrameTimestamp
        self.gap = gap
    }
}
