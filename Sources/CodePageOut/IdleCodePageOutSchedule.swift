/// When a long-running program pages its own code out of memory (docs/daemon.md, "Memory"):
/// once it has been idle for a quiet period, at start and again after each stretch of work.
/// Work never waits for the disk: nothing is paged out while the program says it is busy (a
/// daemon's run showing steps). A schedule that `trimsWhileBusy` also trims once a trim delay
/// after each busy note (a step change): the code's mappings are let go but its files stay
/// cached, so what the work runs comes back from memory and what it ran once (the run's start,
/// the step change) stops counting. Once per note: trimming again and again would only fault the
/// same working code back each time (measured: 0.6 % of a core at one trim every 5 s).
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
        /// The trim delay after the busy note that began `generation` has passed.
        case trimDelayElapsed(generation: UInt64)
    }

    /// What to do about it.
    public enum Action: Sendable, Hashable {
        /// Wait the quiet period, then report `quietPeriodElapsed(generation:)`.
        case waitQuietPeriod(generation: UInt64)
        /// Page the code out and evict its files from the page cache.
        case pageOut
        /// Wait the trim delay, then report `trimDelayElapsed(generation:)`.
        case waitTrimDelay(generation: UInt64)
        /// Let the code's mappings go, keeping its files cached.
        case trim
    }

    /// Counts activity changes: a quiet period counts only if nothing happened during it.
    public private(set) var generation: UInt64 = 0
    private var idle = true
    private var pagedOutGeneration: UInt64?
    private var trimmedGeneration: UInt64?
    private let trimsWhileBusy: Bool

    /// An idle program at start; with `trimsWhileBusy`, busy stretches are trimmed too.
    public init(trimsWhileBusy: Bool = false) {
        self.trimsWhileBusy = trimsWhileBusy
    }

    /// The actions `event` calls for.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started:
            return idle ? [.waitQuietPeriod(generation: generation)] : []
        case .busy, .idle:
            generation &+= 1
            idle = event == .idle
            if idle { return [.waitQuietPeriod(generation: generation)] }
            return trimsWhileBusy ? [.waitTrimDelay(generation: generation)] : []
        case .quietPeriodElapsed(let elapsed):
            guard idle, elapsed == generation, pagedOutGeneration != elapsed else { return [] }
            pagedOutGeneration = elapsed
            return [.pageOut]
        case .trimDelayElapsed(let elapsed):
            guard !idle, elapsed == generation, trimmedGeneration != elapsed else { return [] }
            trimmedGeneration = elapsed
            return [.trim]
        }
    }
}
