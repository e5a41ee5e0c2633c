import Clocks
import BlockingCalls
import Foundation
import IIO
public import Logging
import SystemCalls

/// The built-in simulated IMU (`sim:`, `sim:still`, `sim:walking`): accelerometer, gyroscope and
/// magnetometer samples from `SimulatedMotion`, paced in real time on a dedicated thread and
/// delivered in 20 ms batches like a buffered IIO device, so the daemon and a front end can be
/// developed on a machine without sensors. It is not libiio.
public final class SimulatedMotionSource: MotionSource, @unchecked Sendable {
    public let uri: String
    public let inventory: MotionInventory
    private let activity: SimulatedMotion.Activity
    private let logger: Logger
    private let lock = NSLock()
    /// CLOCK_BOOTTIME when `stop` was called: samples taken before it are still delivered.
    private var stopUptime: Double?
    private var thread: DedicatedThread?

    /// Frequencies the simulated device offers, in Hz.
    public static let availableFrequencies: [Double] = [10, 25, 50, 100, 200]

    /// A simulated IMU for `sim:`, `sim:still` or `sim:walking`.
    public init(uri: String, logger: Logger) throws(MotionSourceError) {
        self.uri = uri
        self.logger = logger
        let option = uri.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if option.isEmpty {
            activity = .walking
        } else if let activity = SimulatedMotion.Activity(rawValue: option) {
            self.activity = activity
        } else {
            throw MotionSourceError(.cannotOpen, "The simulated IMU knows \"sim:still\" and \"sim:walking\", not \"\(uri)\".")
        }
        let sensors = SensorKind.allCases.map { sensor in
            MotionInventory.Sensor(
                sensor: sensor,
                channels: ["x", "y", "z"].enumerated().map { index, axis in
                    MotionInventory.Channel(id: "\(sensor.channelPrefix)_\(axis)", index: index, scanType: "simulated", scale: 1, offset: 0)
                },
                mountMatrix: nil, samplingFrequency: nil, availableSamplingFrequencies: nil)
        }
        inventory = MotionInventory(
            uri: uri, backend: "simulated",
            devices: [
                MotionInventory.Device(
                    id: "sim0", name: "simulated-imu-\(activity.rawValue)", timestampClock: "boottime", hasTimestampChannel: true,
                    samplingFrequency: 100, availableSamplingFrequencies: Self.availableFrequencies, sensors: sensors)
            ])
    }

    public func start(sensors: Set<SensorKind>, frequency: Double, sink: any MotionSampleSink) throws(MotionSourceError) -> [SensorKind: Double] {
        let rate = MotionDiscovery.nearestFrequency(to: frequency, available: Self.availableFrequencies)
        if rate != frequency {
            sink.note("The simulated IMU samples at \(IIOMotionSource.format(rate)) Hz, the nearest it offers to the requested \(IIOMotionSource.format(frequency)) Hz.")
        }
        sink.note("Samples come from the built-in simulated IMU (\(activity.rawValue)), not from a sensor.")
        let order = sensors.sorted()
        let activity = self.activity
        // Sampling starts now, as a device's buffer is enabled here, not when the thread gets
        // to run (late on a starved machine).
        let startUptime = RecordingClock.uptime()
        thread = DedicatedThread(name: "sim-imu") { [self] heartbeat in
            run(sensors: order, rate: rate, activity: activity, from: startUptime, sink: sink, heartbeat: heartbeat)
        }
        logger.info("Simulated IMU started", metadata: ["frequency": "\(rate)", "activity": "\(activity.rawValue)"])
        return Dictionary(uniqueKeysWithValues: order.map { ($0, rate) })
    }

    public func stop(within deadline: Duration) async throws(MotionSourceError) {
        lock.withLock { stopUptime = RecordingClock.uptime() }
        let ended = await thread?.finished(within: deadline) ?? true
        thread = nil
        if !ended {
            throw MotionSourceError(.timedOut, "The simulated IMU did not stop within \(deadline).")
        }
    }

    private var stoppedAt: Double? {
        lock.lock()
        defer { lock.unlock() }
        return stopUptime
    }

    private func run(
        sensors: [SensorKind], rate: Double, activity: SimulatedMotion.Activity, from startUptime: Double, sink: any MotionSampleSink,
        heartbeat: ThreadHeartbeat
    ) {
        var model = SimulatedMotion(activity: activity)
        let period = 1 / rate
        let perBatch = max(1, Int(saturating: (rate * 0.02).rounded(.up)))
        var batch: [MotionSample] = []
        batch.reserveCapacity(perBatch * sensors.count)
        // Sample n is taken at start + n × period on CLOCK_BOOTTIME and delivered once that
        // time has passed, as a sensor's buffer would deliver it. A thread that fell behind (a
        // starved machine) catches up without sleeping, and at the stop it still delivers every
        // sample taken before the stop, as reading a device's buffer to its end would: the
        // count is the rate times the time recorded, however slow the writing was.
        var index = 0
        while true {
            batch.removeAll(keepingCapacity: true)
            for _ in 0..<perBatch {
                let uptime = startUptime + Double(index) * period
                for sensor in sensors {
                    let vector = model.sample(sensor, at: uptime - startUptime)
                    batch.append(MotionSample(sensor: sensor, uptime: uptime, x: vector.x, y: vector.y, z: vector.z))
                }
                index += 1
            }
            heartbeat.beat()
            if stoppedAt == nil { sleep(until: startUptime + Double(index - 1) * period) }
            guard let stopUptime = stoppedAt else {
                batch.withUnsafeBufferPointer { sink.receive($0) }
                continue
            }
            // The batch is in time order: its samples taken by the stop, then the end.
            let kept = batch.prefix { $0.uptime <= stopUptime }.count
            if kept > 0 { batch.withUnsafeBufferPointer { sink.receive(UnsafeBufferPointer(rebasing: $0[..<kept])) } }
            if kept < batch.count { break }
        }
    }

    private func sleep(until uptime: Double) {
        Syscalls.sleep(seconds: uptime - RecordingClock.uptime())
    }
}
