/// One sensor reading with its CLOCK_BOOTTIME time in seconds.
struct TimedVector: Sendable {
    var uptime: Double
    var value: Vector3

    static let empty = TimedVector(uptime: 0, value: .zero)
}
