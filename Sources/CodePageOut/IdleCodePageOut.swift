import BlockingCalls
public import Logging
public import ServiceLifecycle
import SystemCalls

/// Pages the program's code out (`ResidentCode`, with its shared libraries) whenever it has been
/// idle for `quietPeriod` (`IdleCodePageOutSchedule`): a static binary keeps every page of code
/// that ran once (start-up, the start and end of a run) resident, and on a small device that is
/// most of an idle service's memory (docs/benchmarks.md, "A smaller daemon"). What runs again
/// comes back from the binary. Nothing is done while the program is busy: letting a working
/// program's mappings go while its files stay cached would lower VmRSS and free nothing the device
/// can use (docs/daemon.md, "Memory").
public actor IdleCodePageOut: Service {
    private let quietPeriod: Duration
    private let logger: Logger
    private let events: AsyncStream<IdleCodePageOutSchedule.Event>
    private let continuation: AsyncStream<IdleCodePageOutSchedule.Event>.Continuation
    private var schedule: IdleCodePageOutSchedule

    public init(quietPeriod: Duration, logger: Logger) {
        self.quietPeriod = quietPeriod
        schedule = IdleCodePageOutSchedule()
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: IdleCodePageOutSchedule.Event.self)
    }

    /// Tells the service the program is busy (`true`) or idle (`false`); each idle begins a new
    /// quiet period.
    public nonisolated func note(busy: Bool) {
        continuation.yield(busy ? .busy : .idle)
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            carryOut(schedule.handle(.started), in: &group)
            for await event in events.cancelOnGracefulShutdown() {
                carryOut(schedule.handle(event), in: &group)
            }
            // Quiet periods still being waited out end now, not after their sleep.
            group.cancelAll()
        }
    }

    private func carryOut(_ actions: [IdleCodePageOutSchedule.Action], in group: inout DiscardingTaskGroup) {
        for action in actions {
            group.addTask { [weak self] in await self?.perform(action) }
        }
    }

    private func perform(_ action: IdleCodePageOutSchedule.Action) async {
        switch action {
        case .waitQuietPeriod(let generation):
            guard (try? await Task.sleep(for: quietPeriod)) != nil else { return }
            for next in schedule.handle(.quietPeriodElapsed(generation: generation)) { await perform(next) }
        case .pageOut:
            await pageOut()
        }
    }

    private func pageOut() async {
        do {
            let bytes = try await BlockingCall.run("page out code") {
                try ResidentCode.pageOut(includingLibraries: true)
            }
            logger.debug("Paged out the program's code while idle.", metadata: ["bytes": "\(bytes)"])
        } catch {
            // A kernel before Linux 5.4 has no MADV_PAGEOUT; the program works as before.
            logger.debug("The program's code could not be paged out.", metadata: ["error": "\(error)"])
        }
    }
}
