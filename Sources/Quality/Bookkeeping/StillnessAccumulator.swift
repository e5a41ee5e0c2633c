/// Finds the stretches where the device lay still and measures, over them only, the
/// accelerometer's magnitude (1 g on a calibrated sensor) and the gyroscope's mean (its bias).
///
/// Time is cut into windows of `windowSeconds`; a window is still when every accelerometer axis
/// and, when there is one, every gyroscope axis varies less than the given standard deviations.
/// Windows are closed two windows behind the newest sample, so samples of two sensors written a
/// little out of order still meet in the same window, in bounded memory. A window whose samples
/// span less than 80 % of it (the recording's first and last, cut by its start and stop) is not
/// judged: a few samples of a walk near a step's peak vary as little as a device lying still.
public struct StillnessAccumulator: Sendable {
    private struct Window: Sendable {
        var accelerometer = [RunningStatistics](repeating: RunningStatistics(), count: 3)
        var gyro = [RunningStatistics](repeating: RunningStatistics(), count: 3)
        var magnitude = RunningStatistics()
        var first = Double.infinity
        var last = -Double.infinity

        /// Adds a sample taken at `uptime` through `body`, widening the window's span.
        mutating func add(at uptime: Double, _ body: (inout Window) -> Void) {
            body(&self)
            first = min(first, uptime)
            last = max(last, uptime)
        }
    }

    public let windowSeconds: Double
    public let accelerometerDeviation: Double
    public let gyroDeviation: Double
    private var windows: [Int: Window] = [:]
    private var newest = Int.min

    /// Seconds judged still.
    public private(set) var stillSeconds = 0.0
    /// Accelerometer magnitude (g) over the still windows.
    public private(set) var gravity = RunningStatistics()
    /// Gyroscope mean per axis (rad/s) over the still windows that had gyroscope samples.
    public private(set) var gyroBias = [RunningStatistics](repeating: RunningStatistics(), count: 3)

    public init(windowSeconds: Double, accelerometerDeviation: Double, gyroDeviation: Double) {
        self.windowSeconds = windowSeconds
        self.accelerometerDeviation = accelerometerDeviation
        self.gyroDeviation = gyroDeviation
    }

    /// Feeds an accelerometer sample (g).
    public mutating func addAccelerometer(uptime: Double, x: Double, y: Double, z: Double) {
        update(uptime) { window in
            window.accelerometer[0].add(x)
            window.accelerometer[1].add(y)
            window.accelerometer[2].add(z)
            window.magnitude.add((x * x + y * y + z * z).squareRoot())
        }
    }

    /// Feeds a gyroscope sample (rad/s).
    public mutating func addGyro(uptime: Double, x: Double, y: Double, z: Double) {
        update(uptime) { window in
            window.gyro[0].add(x)
            window.gyro[1].add(y)
            window.gyro[2].add(z)
        }
    }

    /// Closes every open window; call once after the last sample.
    public mutating func finish() {
        for key in windows.keys.sorted() { close(key) }
    }

    private mutating func update(_ uptime: Double, _ body: (inout Window) -> Void) {
        let key = Int((uptime / windowSeconds).rounded(.down))
        windows[key, default: Window()].add(at: uptime, body)
        if key > newest {
            newest = key
            for old in windows.keys where old < key - 2 { close(old) }
        }
    }

    private mutating func close(_ key: Int) {
        guard let window = windows.removeValue(forKey: key) else { return }
        // Too few accelerometer samples say nothing about stillness.
        guard window.magnitude.count >= 5, window.last - window.first >= 0.8 * windowSeconds else { return }
        guard window.accelerometer.allSatisfy({ $0.standardDeviation < accelerometerDeviation }) else { return }
        let hasGyro = window.gyro[0].count >= 5
        if hasGyro && !window.gyro.allSatisfy({ $0.standardDeviation < gyroDeviation }) { return }
        stillSeconds += windowSeconds
        gravity.add(window.magnitude.mean)
        if hasGyro {
            for axis in 0..<3 { gyroBias[axis].add(window.gyro[axis].mean) }
        }
    }
}
