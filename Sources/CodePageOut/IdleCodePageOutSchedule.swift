/// When a long-running program pages its own code out of memory (docs/daemon.md, "Memory"):
/// once it has been idle for a quiet period, at start and again after each stretch of work.
/// Work never waits for the disk: nothing is paged out while the program says it is busy (a
/// daemon's run showing steps).
///
/// A plain state machine (`handle(_:) -> [Action]`, no I/O), driven by `IdleCodePageOut`.
public struct IdleCodePageOutSchedule: Sendable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The service has started; the program is idle until it says otherwise.
        case started
        /// The program is busy (work under way, or shutting down): no page-out until it is idle.
        case busy
        /// The program is idle: a quiet period begins (again, if one was under way).
        case idle
        /// The quiet period that began with `generation` has passed.
        case quietPeriodElapsed(generation: UInt64)
    }

    /// What to do about it.
    public enum Action: Sendable, Hashable {
        /// Wait the quiet period, then report `quietPeriodElapsed(generation:)`.
        case waitQuietPeriod(generation: UInt64)
        /// Page the code out and evict its files from the page cache.
        case pageOut
    }

    /// Counts activity changes: a quiet period counts only if nothing happened during it.
    public private(set) var generation: UInt64 = 0
    private var idle = true
    private var pagedOutGeneration: UInt64?

    /// An idle program at start.
    public init() {}

    /// The actions `event` calls for.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started:
            return idle ? [.waitQuietPeriod(generation: generation)] : []
        case .busy, .idle:
            generation &+= 1
            idle = event == .idle
            return idle ? [.waitQuietPeriod(generation: generation)] : []
        case .quietPeriodElapsed(let elapsed):
            guard idle, elapsed == generation, pagedOutGeneration != elapsed else { return [] }
            pagedOutGeneration = elapsed
            return [.pageOut]
        }
    }
}
