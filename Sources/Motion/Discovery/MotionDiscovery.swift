public import IIO

/// Finds accelerometer (`in_accel_*`), gyroscope (`in_anglvel_*`) and magnetometer
/// (`in_magn_*`) channels on every device of a context, whether they sit on separate devices
/// or on one combined IMU.
public enum MotionDiscovery {
    /// The three axis channels of one sensor on one device.
    public struct FoundSensor: @unchecked Sendable {
        /// Which sensor.
        public var sensor: SensorKind
        /// The device whose buffer carries the axes.
        public var device: IIODevice
        /// x, y, z.
        public var axes: [IIOChannel]
    }

    /// Every complete (x, y, z) motion sensor that can be captured in a buffer, in device order.
    public static func sensors(in context: IIOContext) -> [FoundSensor] {
        var found: [FoundSensor] = []
        for device in context.devices {
            var axes: [SensorKind: [Int: IIOChannel]] = [:]
            for channel in device.channels where !channel.isOutput && channel.isScanElement {
                guard let (sensor, axis) = SensorKind.parse(channelID: channel.id) else { continue }
                axes[sensor, default: [:]][axis] = channel
            }
            for sensor in SensorKind.allCases {
                guard let byAxis = axes[sensor], let x = byAxis[0], let y = byAxis[1], let z = byAxis[2] else { continue }
                found.append(FoundSensor(sensor: sensor, device: device, axes: [x, y, z]))
            }
        }
        return found
    }

    /// The device's timestamp scan element, if it has one.
    public static func timestampChannel(of device: IIODevice) -> IIOChannel? {
        device.channels.first { !$0.isOutput && $0.isScanElement && $0.id == "timestamp" }
    }

    /// The sensor's mount matrix: the channel type's (`in_accel_mount_matrix`), else the
    /// device's (`mount_matrix`, `in_mount_matrix`); nil when there is none.
    public static func mountMatrixText(of found: FoundSensor) -> String? {
        if let text = found.axes[0].attribute("mount_matrix") { return text }
        return found.device.attribute("mount_matrix") ?? found.device.attribute("in_mount_matrix")
    }

    /// The sampling frequency attribute that applies to the sensor: the channel type's
    /// (`in_accel_sampling_frequency`) where the driver has one, else the device's.
    public static func samplingFrequency(of found: FoundSensor) -> (channelLevel: Bool, current: Double?, available: [Double]) {
        let channel = found.axes[0]
        if channel.attributeNames.contains("sampling_frequency") {
            return (
                true, channel.attribute("sampling_frequency").flatMap { Double($0) },
                parseFrequencies(channel.attribute("sampling_frequency_available"))
            )
        }
        return (
            false, found.device.attribute("sampling_frequency").flatMap { Double($0) },
            parseFrequencies(found.device.attribute("sampling_frequency_available"))
        )
    }

    /// Parses `sampling_frequency_available` (`12.5 26 52 104`); ranges `[min step max]` give
    /// their ends.
    public static func parseFrequencies(_ text: String?) -> [Double] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" })
            .compactMap { Double($0) }
    }

    /// The offered frequency nearest to `requested` (ties go to the higher one); `requested`
    /// itself when nothing is offered.
    public static func nearestFrequency(to requested: Double, available: [Double]) -> Double {
        guard var best = available.first else { return requested }
        for candidate in available.dropFirst() {
            let distance = abs(candidate - requested)
            let bestDistance = abs(best - requested)
            if distance < bestDistance || (distance == bestDistance && candidate > best) { best = candidate }
        }
        return best
    }

    /// The inventory of a context, for `activetaskctl sensors`.
    public static func inventory(of context: IIOContext) -> MotionInventory {
        let found = sensors(in: context)
        var devices: [MotionInventory.Device] = []
        for device in context.devices {
            let deviceSensors = found.filter { $0.device.id == device.id }
            guard !deviceSensors.isEmpty else { continue }
            let sensors = deviceSensors.map { found -> MotionInventory.Sensor in
                let frequency = samplingFrequency(of: found)
                return MotionInventory.Sensor(
                    sensor: found.sensor,
                    channels: found.axes.map { channel in
                        MotionInventory.Channel(
                            id: channel.id, index: channel.index, scanType: channel.scanType?.description ?? "",
                            scale: channel.attribute("scale").flatMap { Double($0) } ?? 1,
                            offset: channel.attribute("offset").flatMap { Double($0) } ?? 0)
                    },
                    mountMatrix: mountMatrixText(of: found),
                    samplingFrequency: frequency.channelLevel ? frequency.current : nil,
                    availableSamplingFrequencies: frequency.channelLevel ? frequency.available : nil)
            }
            devices.append(
                MotionInventory.Device(
                    id: device.id, name: device.name, timestampClock: device.attribute("current_timestamp_clock"),
                    hasTimestampChannel: timestampChannel(of: device) != nil,
                    samplingFrequency: device.attribute("sampling_frequency").flatMap { Double($0) },
                    availableSamplingFrequencies: parseFrequencies(device.attribute("sampling_frequency_available")),
                    sensors: sensors))
        }
        return MotionInventory(uri: context.uri, backend: context.name, devices: devices)
    }
}
