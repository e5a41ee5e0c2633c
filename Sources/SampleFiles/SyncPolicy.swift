/// How often buffered sample data reaches the disk.
///
/// Data is handed to the kernel when the buffer fills or `flushInterval` passes, and forced to
/// stable storage with fsync every `syncInterval`, so a power cut loses at most about
/// `syncInterval` seconds of samples.
public struct SyncPolicy: Sendable, Hashable {
    /// Seconds between writes of buffered data to the file.
    public var flushInterval: Double
    /// Seconds between fsync calls.
    public var syncInterval: Double

    public init(flushInterval: Double = 0.25, syncInterval: Double = 1) {
        self.flushInterval = flushInterval
        self.syncInterval = syncInterval
    }

    /// An fsync every `interval` (the daemon's `syncInterval`, docs/configuration.md), with
    /// data handed to the kernel four times a second, or at each fsync when that is more often.
    public init(syncingEvery interval: Duration) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        self.init(flushInterval: min(0.25, seconds), syncInterval: seconds)
    }

    /// The daemon's default: flush four times a second, fsync every second.
    public static let `default` = SyncPolicy()
}
