/// The configuration a PCM actually runs with after `configure`.
public struct NegotiatedParameters: Sendable, Hashable, Codable {
    public var rate: Int
    public var channels: Int
    public var format: SampleFormat
    public var periodFrames: Int
    public var bufferFrames: Int

    public init(rate: Int, channels: Int, format: SampleFormat, periodFrames: Int, bufferFrames: Int) {
        self.rate = rate
        self.channels = channels
        self.format = format
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }

    /// Bytes in one frame (all channels).
    public var bytesPerFrame: Int { channels * format.bytesPerSample }
}
