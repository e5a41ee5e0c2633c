/// Something that delivers motion samples in CoreMotion units: IIO devices through libiio
/// (`local:`, `ip:HOST`) or the built-in simulated IMU (`sim:`).
///
/// A source is opened once (on a dedicated thread: opening `ip:` is a network connect) (that is the recorder's permission check), started once with the
/// sensors and rate to record, and stopped once. Samples go to the sink from the source's own
/// threads, never from the Swift concurrency pool.
public protocol MotionSource: AnyObject, Sendable {
    /// The URI the source was opened from.
    var uri: String { get }

    /// The devices and motion sensors found.
    var inventory: MotionInventory { get }

    /// Configures the sensors, starts the reader threads and returns the sampling frequency
    /// each sensor runs at (the nearest the device offers to `frequency`).
    func start(sensors: Set<SensorKind>, frequency: Double, sink: any MotionSampleSink) throws(MotionSourceError) -> [SensorKind: Double]

    /// Stops the reader threads and waits for them to end; throws `.timedOut` when one has not
    /// ended within `deadline` (it is stuck in a device call and is left behind).
    func stop(within deadline: Duration) async throws(MotionSourceError)
}

extension MotionSource {
    /// The sensors the source can deliver.
    public var availableSensors: Set<SensorKind> {
        Set(inventory.devices.flatMap { $0.sensors.map(\.sensor) })
    }
}
