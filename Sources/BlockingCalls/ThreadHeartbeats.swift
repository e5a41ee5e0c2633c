import Clocks
import Synchronization

/// The liveness view of every dedicated thread in the process, for a systemd watchdog: the
/// watchdog pings only while `stalled(olderThan:)` is empty.
public enum ThreadHeartbeats {
    private static let registry = Mutex<[ObjectIdentifier: ThreadHeartbeat]>([:])

    /// Registers a thread's heartbeat (busy from now); `unregister` when the thread ends.
    static func register(name: String) -> ThreadHeartbeat {
        let heartbeat = ThreadHeartbeat(name: name)
        heartbeat.beat()
        registry.withLock { $0[ObjectIdentifier(heartbeat)] = heartbeat }
        return heartbeat
    }

    static func unregister(_ heartbeat: ThreadHeartbeat) {
        _ = registry.withLock { $0.removeValue(forKey: ObjectIdentifier(heartbeat)) }
    }

    /// The names of the dedicated threads that have been inside one blocking call for longer
    /// than `limit`, sorted.
    public static func stalled(olderThan limit: Duration) -> [String] {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let now = now()
        return registry.withLock { threads in
            threads.values.compactMap { heartbeat in
                guard let busy = heartbeat.secondsInCall(now: now), busy > seconds else { return nil }
                return heartbeat.name
            }
        }.sorted()
    }

    /// The names of the dedicated threads alive now, sorted.
    public static var threadNames: [String] {
        registry.withLock { $0.values.map(\.name) }.sorted()
    }

    /// CLOCK_MONOTONIC seconds: the heartbeat clock (intervals only, so suspend does not count).
    public static func now() -> Double {
        RecordingClock.monotonic()
    }
}
