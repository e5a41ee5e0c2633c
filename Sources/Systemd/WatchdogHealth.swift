/// The watchdog's bookkeeping, lifted out of the timer loop: given what the health probe
/// reports stuck on each tick, whether to ping and what is worth logging.
struct WatchdogHealth: Sendable, Equatable {
    /// What a tick should do.
    enum Decision: Sendable, Equatable {
        /// Everything makes progress: send WATCHDOG=1.
        case ping
        /// Everything makes progress again after `previouslyStuck` were stuck: ping and say so.
        case pingAfterRecovery(previouslyStuck: [String])
        /// Something is stuck: withhold the ping so that systemd restarts the daemon.
        /// `changed` is true when the set of stuck names differs from the previous tick's, so
        /// the caller logs once per change rather than on every tick.
        case withhold(stuck: [String], changed: Bool)
    }

    /// What the last tick found stuck (sorted, empty when healthy).
    private(set) var stuck: [String] = []

    /// The decision for a tick on which the probe reported `reported` stuck.
    mutating func evaluate(stuck reported: [String]) -> Decision {
        let now = Array(Set(reported)).sorted()
        defer { stuck = now }
        if now.isEmpty {
            return stuck.isEmpty ? .ping : .pingAfterRecovery(previouslyStuck: stuck)
        }
        return .withhold(stuck: now, changed: now != stuck)
    }
}
