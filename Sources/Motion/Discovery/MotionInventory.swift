/// The IIO devices and motion sensors a source offers, as `activetaskctl sensors` prints them.
public struct MotionInventory: Sendable, Hashable, Codable {
    /// One device with motion channels.
    public struct Device: Sendable, Hashable, Codable {
        public var id: String
        public var name: String?
        /// The timestamp channel's clock (`current_timestamp_clock`), when the device says.
        public var timestampClock: String?
        /// Whether the device has an `in_timestamp` scan element.
        public var hasTimestampChannel: Bool
        /// `sampling_frequency` now, in Hz.
        public var samplingFrequency: Double?
        /// `sampling_frequency_available`, in Hz.
        public var availableSamplingFrequencies: [Double]
        public var sensors: [Sensor]
    }

    /// One sensor (three axes) of a device.
    public struct Sensor: Sendable, Hashable, Codable {
        public var sensor: SensorKind
        public var channels: [Channel]
        /// The mount matrix as the kernel prints it; nil when the device has none (identity).
        public var mountMatrix: String?
        /// Per-sensor sampling frequency, for devices that set it per channel type.
        public var samplingFrequency: Double?
        public var availableSamplingFrequencies: [Double]?
    }

    /// One axis channel.
    public struct Channel: Sendable, Hashable, Codable {
        public var id: String
        public var index: Int
        public var scanType: String
        public var scale: Double
        public var offset: Double
    }

    /// The URI the inventory was taken from.
    public var uri: String
    /// The backend (`local`, `network`, `simulated`).
    public var backend: String
    public var devices: [Device]

    public init(uri: String, backend: String, devices: [Device]) {
        self.uri = uri
        self.backend = backend
        self.devices = devices
    }
}
