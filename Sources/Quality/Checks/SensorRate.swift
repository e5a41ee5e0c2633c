/// The rates a motion sensor was asked for and given, and where the numbers come from.
public struct SensorRate: Sendable, Hashable {
    /// Where the requested rate came from.
    public enum Source: String, Sendable, Hashable {
        /// Given by the caller (`RunQuality.evaluate(…, requestedFrequency:)`).
        case override
        /// The task copy (`task.json`) in the run directory.
        case task
        /// The file result's notes ("… the requested 100 Hz").
        case notes
        /// Estimated from the first sample intervals: nothing said what was asked for.
        case data
    }

    /// Hz asked for.
    public var requested: Double
    /// Hz the device was set to when the notes say it differs from the request.
    public var device: Double?
    public var source: Source

    /// The rate the samples should arrive at.
    public var expected: Double { device ?? requested }

    /// Per raw sensor (`accelerometer`, `gyroscope`, `magnetometer`, or `*` for every sensor):
    /// the device rate and the request the recorder's notes state, for example "gyroscope on
    /// iio:device0 samples at 104 Hz, the nearest the device offers to the requested 100 Hz."
    static func notedRates(_ notes: [String]) -> [String: (device: Double, requested: Double)] {
        var rates: [String: (device: Double, requested: Double)] = [:]
        for note in notes {
            guard let samplesAt = note.range(of: " samples at "), let requested = note.range(of: "the requested ") else { continue }
            let device = Double(note[samplesAt.upperBound...].prefix { $0.isNumber || $0 == "." })
            let asked = Double(note[requested.upperBound...].prefix { $0.isNumber || $0 == "." })
            guard let device, let asked else { continue }
            let subject = note[..<samplesAt.lowerBound]
            let sensor = subject.hasPrefix("The simulated IMU") ? "*" : String(subject.prefix { $0 != " " })
            rates[sensor] = (device, asked)
        }
        return rates
    }

    /// The name the recorder's notes use for the sensor behind a record type.
    static func notedSensor(for type: MotionSensorType) -> String {
        switch type {
        case .accelerometer: "accelerometer"
        case .magnetometer, .magneticField: "magnetometer"
        default: "gyroscope"
        }
    }
}
