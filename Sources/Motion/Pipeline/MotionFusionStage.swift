public import TaskModel

/// A sensor-fusion stage between conversion and writing: it consumes converted raw samples
/// (accelerometer g, gyroscope rad/s, magnetometer µT, CLOCK_BOOTTIME uptimes, in time order
/// per sensor) and emits fused device-motion records (gravity, userAcceleration, attitude,
/// rotationRate, magneticField).
///
/// The recorder owns one stage per recording and calls it from one thread at a time.
public protocol MotionFusionStage: AnyObject {
    /// Feeds one raw sample; `emit` receives the fused records it completes, if any.
    func consume(_ sample: MotionSample, emit: (MotionRecord) -> Void)

    /// The recording ends: emits the records still held back for time alignment, so the last
    /// samples are not lost.
    func finish(emit: (MotionRecord) -> Void)
}

/// Creates a fusion stage for one recording.
public protocol MotionFusionFactory: Sendable {
    /// The device-motion types the stages can produce.
    var producibleTypes: Set<MotionRecorderType> { get }

    /// The raw sensors a stage needs for `types` (for example accelerometer and gyroscope, plus
    /// the magnetometer for magneticField or a north-referenced attitude).
    func requiredSensors(for types: Set<MotionRecorderType>) -> Set<SensorKind>

    /// A new stage producing `types` from samples at about `frequency` Hz.
    func makeStage(types: Set<MotionRecorderType>, frequency: Double) -> any MotionFusionStage
}
