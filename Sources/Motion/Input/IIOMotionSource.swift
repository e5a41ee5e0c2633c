import Clocks
import Foundation
import IIO
public import Logging
import TaskModel

/// Motion sensors of a libiio context (`local:`, `ip:HOST`): sets the sampling frequency to the
/// nearest the device offers, puts the timestamp channel on CLOCK_BOOTTIME when it can (else
/// converts from the device's clock), enables the axes and `in_timestamp`, and reads each
/// device's buffer on its own thread.
public final class IIOMotionSource: MotionSource, @unchecked Sendable {
    public let uri: String
    public let inventory: MotionInventory
    /// Seconds from sensor to sink: on `local:` the reader takes what has arrived every this
    /// many seconds (non-blocking refills); on remote contexts each refill holds this many
    /// seconds of samples.
    public static let bufferLatency = 0.02
    /// Seconds of samples the buffer holds on `local:`, where reads do not wait for it to fill:
    /// the most one refill takes, so a reader that has fallen behind (or a device delivering
    /// faster than real time) is caught up with one read per this many seconds of samples
    /// instead of one poll and read per `bufferLatency`.
    public static let refillDuration = 0.1
    /// Fewest scans per refill.
    public static let minimumBufferScans = 2
    /// Silence after which a device counts as stalled (at least three buffers' worth of time).
    public var stallTimeout: Double = 5
    private let context: IIOContext
    private let logger: Logger
    private var readers: [DeviceReader] = []

    /// Opens the libiio context at `uri` and takes its inventory.
    public init(uri: String, logger: Logger) throws(MotionSourceError) {
        self.uri = uri
        self.logger = logger
        do {
            context = try IIOContext(uri: uri)
            // Refills wake at least this often to notice a stop or a vanished device.
            try context.setTimeout(milliseconds: 1000)
        } catch {
            throw MotionSourceError(.cannotOpen, "Could not open the IIO context \"\(uri)\": \(error.reason). \(error.advice)", underlying: error)
        }
        inventory = MotionDiscovery.inventory(of: context)
    }

    public func start(sensors: Set<SensorKind>, frequency: Double, sink: any MotionSampleSink) throws(MotionSourceError) -> [SensorKind: Double] {
        let found = MotionDiscovery.sensors(in: context)
        var chosen: [MotionDiscovery.FoundSensor] = []
        for sensor in sensors.sorted() {
            guard let match = found.first(where: { $0.sensor == sensor }) else {
                throw MotionSourceError(
                    .missingSensor,
                    "No \(sensor.rawValue) (in_\(sensor.channelPrefix)_x/y/z) was found at \(uri). Run activetaskctl sensors --iio-uri \(uri) to see what is there.")
            }
            chosen.append(match)
        }
        var frequencies: [SensorKind: Double] = [:]
        var deviceOrder: [String] = []
        var byDevice: [String: [MotionDiscovery.FoundSensor]] = [:]
        for sensor in chosen {
            if byDevice[sensor.device.id] == nil { deviceOrder.append(sensor.device.id) }
            byDevice[sensor.device.id, default: []].append(sensor)
        }
        var newReaders: [DeviceReader] = []
        do {
            for deviceID in deviceOrder {
                let group = byDevice[deviceID]!
                let (reader, rates) = try prepare(device: group[0].device, sensors: group, frequency: frequency, sink: sink)
                newReaders.append(reader)
                frequencies.merge(rates) { $1 }
            }
        } catch let error as MotionSourceError {
            throw error
        } catch let error as IIOError {
            throw MotionSourceError(.configuration, "Could not configure the motion sensors at \(uri): \(error)", underlying: error)
        } catch {
            throw MotionSourceError(.configuration, "Could not configure the motion sensors at \(uri): \(error)")
        }
        readers = newReaders
        for reader in readers { reader.start() }
        return frequencies
    }

    public func stop(within deadline: Duration) async throws(MotionSourceError) {
        var stuck: [String] = []
        for reader in readers where !(await reader.stop(within: deadline)) { stuck.append(reader.deviceID) }
        readers = []
        if !stuck.isEmpty {
            throw MotionSourceError(
                .timedOut,
                "The motion sensor \(stuck.joined(separator: ", ")) at \(uri) did not stop within \(deadline) and hangs in a device call; reconnect it or restart the daemon.")
        }
    }

    private func prepare(
        device: IIODevice, sensors: [MotionDiscovery.FoundSensor], frequency: Double, sink: any MotionSampleSink
    ) throws -> (DeviceReader, [SensorKind: Double]) {
        var rates: [SensorKind: Double] = [:]
        var deviceRate: Double?
        for sensor in sensors {
            let setting = MotionDiscovery.samplingFrequency(of: sensor)
            let target = MotionDiscovery.nearestFrequency(to: frequency, available: setting.available)
            var actual = setting.current ?? frequency
            if setting.current != nil {
                if setting.channelLevel {
                    try? sensor.axes[0].writeAttribute("sampling_frequency", Self.format(target))
                    actual = sensor.axes[0].attribute("sampling_frequency").flatMap { Double($0) } ?? target
                } else if deviceRate == nil {
                    try? device.writeAttribute("sampling_frequency", Self.format(target))
                    actual = device.attribute("sampling_frequency").flatMap { Double($0) } ?? target
                    deviceRate = actual
                } else {
                    actual = deviceRate!
                }
            }
            if actual != frequency {
                sink.note("\(sensor.sensor.rawValue) on \(device.id) samples at \(Self.format(actual)) Hz, the nearest the device offers to the requested \(Self.format(frequency)) Hz.")
            }
            logger.info(
                "Motion sensor configured",
                metadata: ["device": "\(device.id)", "sensor": "\(sensor.sensor.rawValue)", "frequency": "\(actual)"])
            rates[sensor.sensor] = actual
        }
        let rate = rates.values.max() ?? frequency

        for channel in device.channels { channel.disable() }
        for sensor in sensors { for axis in sensor.axes { axis.enable() } }
        let timestampChannel = MotionDiscovery.timestampChannel(of: device)
        timestampChannel?.enable()

        var clock = DeviceClockMapping.boottime
        if timestampChannel != nil {
            let current = device.timestampClock
            if current != nil && current != .boottime {
                try? device.writeAttribute("current_timestamp_clock", "boottime")
            }
            // Without the attribute the kernel stamps with CLOCK_REALTIME (iio_get_time_ns).
            let effective = device.attribute("current_timestamp_clock").flatMap(TimestampClock.init(attribute:)) ?? .realtime
            clock = DeviceClockMapping.measure(clock: effective)
            if effective != .boottime {
                sink.note("\(device.id) stamps samples on CLOCK_\(effective.rawValue.uppercased()) and its clock could not be set to boottime; uptimes were converted with an offset of \(Self.format(clock.offset)) s measured at start.")
            }
        } else {
            sink.note("\(device.id) has no timestamp channel: sample uptimes were derived from the \(Self.format(rate)) Hz sampling rate and the time each buffer was read, so they carry the read latency and cannot show gaps.")
        }

        // libiio's local backend reads without blocking, so its reader is paced by time and its
        // buffer can be large; iiod's network protocol reads whole buffers, so remote ones stay
        // short.
        let pacedReads = context.name == "local"
        let scans = Self.refillScans(rate: rate, pacedReads: pacedReads)
        let buffer = try device.createBuffer(scans: scans)
        var conversions: [SensorConversion] = []
        for sensor in sensors {
            var axes: [AxisCalibration] = []
            for channel in sensor.axes {
                guard let offset = buffer.offset(of: channel), let type = channel.scanType else {
                    throw MotionSourceError(.configuration, "The channel \(channel.id) of \(device.id) could not be enabled in the buffer.")
                }
                axes.append(
                    AxisCalibration(
                        scanOffset: offset, type: type,
                        scale: channel.attribute("scale").flatMap { Double($0) } ?? 1,
                        offset: channel.attribute("offset").flatMap { Double($0) } ?? 0))
            }
            let matrixText = MotionDiscovery.mountMatrixText(of: sensor)
            let matrix = matrixText.flatMap(MountMatrix.init(parsing:)) ?? .identity
            conversions.append(SensorConversion(sensor: sensor.sensor, axes: axes, mountMatrix: matrix))
        }
        var timestampLayout: (offset: Int, type: ScanType)?
        if let channel = timestampChannel, let offset = buffer.offset(of: channel), let type = channel.scanType {
            timestampLayout = (offset, type)
        }
        let layout = DeviceReader.Layout(
            converter: ScanBatchConverter(conversions: conversions, timestamp: timestampLayout, clock: clock, frequency: rate),
            probeChannel: sensors.first?.axes.first,
            readInterval: pacedReads ? Self.bufferLatency : nil)
        var readerLogger = logger
        readerLogger[metadataKey: "device"] = "\(device.id)"
        let reader = DeviceReader(device: device, buffer: buffer, layout: layout, sink: sink, stallTimeout: max(stallTimeout, 3 * Double(scans) / rate), logger: readerLogger)
        return (reader, rates)
    }

    /// Scans per buffer at `rate` Hz: `refillDuration` of samples for paced (non-blocking)
    /// reads, else `bufferLatency`; at least `minimumBufferScans`.
    static func refillScans(rate: Double, pacedReads: Bool) -> Int {
        let seconds = pacedReads ? refillDuration : bufferLatency
        return max(minimumBufferScans, Int(saturating: (rate * seconds).rounded(.up)))
    }

    static func format(_ value: Double) -> String {
        NumberText.plain(value)
    }
}
