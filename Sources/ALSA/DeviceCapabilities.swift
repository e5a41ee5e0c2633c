/// The ranges a PCM accepts in one direction, or why it could not be probed.
public struct DeviceCapabilities: Sendable, Hashable, Codable {
    public var direction: PCMDirection
    public var minimumRate: Int?
    public var maximumRate: Int?
    public var minimumChannels: Int?
    public var maximumChannels: Int?
    /// The formats among `SampleFormat.allCases` the device accepts.
    public var formats: [SampleFormat]
    /// Set when the device could not be opened in this direction (busy, absent, no server).
    public var error: String?

    public init(
        direction: PCMDirection, minimumRate: Int? = nil, maximumRate: Int? = nil,
        minimumChannels: Int? = nil, maximumChannels: Int? = nil, formats: [SampleFormat] = [], error: String? = nil
    ) {
        self.direction = direction
        self.minimumRate = minimumRate
        self.maximumRate = maximumRate
        self.minimumChannels = minimumChannels
        self.maximumChannels = maximumChannels
        self.formats = formats
        self.error = error
    }
}
