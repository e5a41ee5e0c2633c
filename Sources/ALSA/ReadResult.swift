/// What one `PCM.read` delivered.
public struct ReadResult: Sendable, Hashable {
    /// Frames read into the buffer.
    public var frames: Int
    /// CLOCK_MONOTONIC seconds at which the first of these frames was captured.
    public var firstFrameTimestamp: Double
    /// Set when the stream broke and was recovered just before these frames.
    public var gap: StreamGap?

    public init(frames: Int, firstFrameTimestamp: Double, gap: StreamGap?) {
        self.frames = frames
        self.firstFrameTimestamp = firstFrameTimestamp
        self.gap = gap
    }
}
