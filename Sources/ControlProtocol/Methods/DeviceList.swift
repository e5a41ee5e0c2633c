/// `devices.list`: the motion and audio devices the daemon can record from or play to.
public struct DeviceList: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var motion: [MotionDevice]
    public var audio: [AudioDevice]

    public init(motion: [MotionDevice], audio: [AudioDevice]) {
        self.motion = motion
        self.audio = audio
    }

    /// One IIO device with motion channels.
    public struct MotionDevice: Sendable, Hashable, Codable {
        /// The IIO device name (e.g. `bmi160`).
        public var name: String
        /// The IIO device id (e.g. `iio:device0`).
        public var identifier: String
        /// The sensors it carries: `accelerometer`, `gyro`, `magnetometer`.
        public var sensors: [String]
        /// Sampling frequencies it accepts, in Hz.
        public var samplingFrequencies: [Double]

        public init(name: String, identifier: String, sensors: [String], samplingFrequencies: [Double]) {
            self.name = name
            self.identifier = identifier
            self.sensors = sensors
            self.samplingFrequencies = samplingFrequencies
        }
    }

    /// One ALSA PCM.
    public struct AudioDevice: Sendable, Hashable, Codable {
        public var name: String
        public var description: String
        public var capture: Bool
        public var playback: Bool

        public init(name: String, description: String, capture: Bool, playback: Bool) {
            self.name = name
            self.description = description
            self.capture = capture
            self.playback = playback
        }
    }

    public static var schema: JSONSchema {
        .object([
            .init("motion", .array(.object([
                .init("name", .string()), .init("identifier", .string()),
                .init("sensors", .array(.string(enumeration: ["accelerometer", "gyro", "magnetometer"]))),
                .init("samplingFrequencies", .array(.number)),
            ], required: ["name", "identifier", "sensors", "samplingFrequencies"]))),
            .init("audio", .array(.object([
                .init("name", .string()), .init("description", .string()),
                .init("capture", .boolean), .init("playback", .boolean),
            ], required: ["name", "description", "capture", "playback"]))),
        ], required: ["motion", "audio"])
    }
}
