/// What one `PCM.read` or `PCM.write` moved.
public struct TransferResult: Sendable, Hashable {
    /// Frames read into, or accepted from, the buffer.
    public var frames: Int
    /// CLOCK_MONOTONIC seconds of the first of these frames: when it was captured (read), or
    /// when it will be heard, the status time plus the delay queued ahead of it (write).
    public var firstFrameTimestamp: Double
    /// Set when the stream broke (overrun or underrun) and was recovered just before these frames.
    public var gap: StreamGap?
    /// For a write: whether the device reported the frames as queued (a delay of at least the
    /// frames just written). False for a device that takes frames as fast as they come and
    /// reports no delay (ALSA's `file` plugin over `null`): `firstFrameTimestamp` is then only
    /// when the frames were handed over. Always true for a read.
    public var isDelayReported: Bool

    public init(frames: Int, firstFrameTimestamp: Double, gap: StreamGap?, isDelayReported: Bool = true) {
        self.frames = frames
        self.firstFrameTimestamp = firstFrameTimestamp
        self.gap = gap
        self.isDelayReported = isDelayReported
    }
}
