/// The IIO devices and motion sensors a source offers, as `activetaskctl sensors` prints them.
public struct MotionInventory: Sendable, Hashable, Codable {
    /// One device with motion channels.
    public struct Device: Sendable, Hashable, Codable {
        /// `iio:deviceN`.
        public var id: String
        /// The driver's name.
        public var name: String?
        /// The timestamp channel's clock (`current_timestamp_clock`), when the device says.
        public var timestampClock: String?
        /// Whether the device has an `in_timestamp` scan element.
        public var hasTimestampChannel: Bool
        /// `sampling_frequency` now, in Hz.
        public var samplingFrequency: Double?
        /// `sampling_frequency_available`, in Hz.
        public var availableSamplingFrequencies: [Double]
        /// The complete motion sensors found on the device.
        public var sensors: [Sensor]
    }

    /// One sensor (three axes) of a device.
    public struct Sensor: Sendable, Hashable, Codable {
        /// Which sensor.
        public var sensor: SensorKind
        /// x, y, z.
        public var channels: [Channel]
        /// The mount matrix as the kernel prints it; nil when the device has none (identity).
        public var mountMatrix: String?
        /// Per-sensor sampling frequency, for devices that set it per channel type.
        public var samplingFrequency: Double?
        /// Its `sampling_frequency_available`, for such devices.
        public var availableSamplingFrequencies: [Double]?
    }

    /// One axis channel.
    public struct Channel: Sendable, Hashable, Codable {
        /// `accel_x`, ….
        public var id: String
        /// Position in a scan.
        public var index: Int
        /// The kernel's notation (`le:s16/16>>0`).
        public var scanType: String
        /// sysfs `scale` (1 when absent).
        public var scale: Double
        /// sysfs `offset` (0 when absent).
        public var offset: Double
    }

    /// The URI the inventory was taken from.
    public var uri: String
    /// The backend (`local`, `network`, `simulated`).
    public var backend: String
    /// Devices with at least one complete motion sensor.
    public var devices: [Device]

    /// An inventory of `devices` found at `uri`.
    public init(uri: String, backend: String, devices: [Device]) {
        self.uri = uri
        self.backend = backend
        self.devices = devices
    }
}
