import CodePageOut
import Testing

/// When a program pages its code out (docs/daemon.md, "Memory"): only after a quiet period of
/// an idle program, once per quiet period, never while it is busy.
@Suite("IdleCodePageOutSchedule")
struct IdleCodePageOutScheduleTests {
    typealias Schedule = IdleCodePageOutSchedule

    @Test("The schedule: a page-out only after a quiet period of an idle program, once per quiet period", arguments: [
        ("start, quiet", [Schedule.Event.started, .quietPeriodElapsed(generation: 0)],
         [[Schedule.Action.waitQuietPeriod(generation: 0)], [.pageOut]]),
        ("the same quiet period twice", [.started, .quietPeriodElapsed(generation: 0), .quietPeriodElapsed(generation: 0)],
         [[.waitQuietPeriod(generation: 0)], [.pageOut], []]),
        ("work starts during the quiet period", [.started, .busy, .quietPeriodElapsed(generation: 0)],
         [[.waitQuietPeriod(generation: 0)], [], []]),
        ("busy never pages out", [.busy, .quietPeriodElapsed(generation: 1), .busy, .quietPeriodElapsed(generation: 2)],
         [[], [], [], []]),
        ("after work, once quiet", [.started, .quietPeriodElapsed(generation: 0), .busy, .idle, .quietPeriodElapsed(generation: 2)],
         [[.waitQuietPeriod(generation: 0)], [.pageOut], [], [.waitQuietPeriod(generation: 2)], [.pageOut]]),
        ("work begins again before the quiet period ends", [.idle, .busy, .quietPeriodElapsed(generation: 1)],
         [[.waitQuietPeriod(generation: 1)], [], []]),
        ("idle again starts the quiet period anew", [.started, .idle, .quietPeriodElapsed(generation: 0), .quietPeriodElapsed(generation: 1)],
         [[.waitQuietPeriod(generation: 0)], [.waitQuietPeriod(generation: 1)], [], [.pageOut]]),
        ("busy until the end (shutting down)", [.started, .busy, .quietPeriodElapsed(generation: 0), .quietPeriodElapsed(generation: 1)],
         [[.waitQuietPeriod(generation: 0)], [], [], []]),
    ])
    func schedule(name: String, events: [Schedule.Event], expected: [[Schedule.Action]]) {
        var schedule = Schedule()
        #expect(events.map { schedule.handle($0) } == expected, "\(name)")
    }
}
