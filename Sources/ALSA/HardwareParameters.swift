/// The hardware configuration asked of a PCM; ALSA picks the nearest values it supports.
public struct HardwareParameters: Sendable, Hashable {
    /// Frames per second.
    public var rate: Int
    public var channels: Int
    public var format: SampleFormat
    /// Frames per period (one wake-up); nil lets ALSA choose.
    public var periodFrames: Int?
    /// Frames in the ring buffer; nil lets ALSA choose (usually several periods).
    public var bufferFrames: Int?
    /// Whether ALSA may resample in software when the device lacks the rate.
    public var allowsResampling: Bool

    public init(
        rate: Int, channels: Int, format: SampleFormat,
        periodFrames: Int? = nil, bufferFrames: Int? = nil, allowsResampling: Bool = true
    ) {
        self.rate = rate
        self.channels = channels
        self.format = format
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.allowsResampling = allowsResampling
    }
}
