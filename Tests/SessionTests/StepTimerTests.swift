import Session
import Testing

@Suite("Step timer bookkeeping")
struct StepTimerTests {
    @Test("start, ticks and end", arguments: [
        // (duration, now after start, next deadline offset from start)
        (5.0, 0.0, 1.0), (5.0, 0.5, 1.0), (5.0, 1.0, 2.0), (5.0, 4.2, 5.0), (2.5, 2.1, 2.5), (0.4, 0.0, 0.4),
    ])
    func deadlines(duration: Double, elapsed: Double, expected: Double) {
        var timer = StepTimer(duration: duration)
        #expect(timer.nextDeadline(after: 100) == nil)
        let started = timer.start(at: 100)
        let again = timer.start(at: 101)
        #expect(started && !again)
        #expect(timer.nextDeadline(after: 100 + elapsed) == 100 + expected)
        #expect(abs(timer.elapsed(at: 100 + elapsed) - elapsed) < 1e-9)
    }

    @Test("pause holds the elapsed time and resume shifts second 0")
    func pauseResume() {
        var timer = StepTimer(duration: 10)
        _ = timer.start(at: 0)
        let paused = timer.pause(at: 3)
        let pausedAgain = timer.pause(at: 4)
        #expect(paused == 3 && pausedAgain == nil)
        #expect(timer.elapsed(at: 50) == 3)
        #expect(timer.nextDeadline(after: 50) == nil)
        let finishedWhilePaused = timer.finishIfDue(at: 50)
        let resumed = timer.resume(at: 20)
        #expect(!finishedWhilePaused && resumed)
        #expect(timer.elapsed(at: 22) == 5)
        #expect(timer.remaining(at: 22) == 5)
        let early = timer.finishIfDue(at: 26.9)
        let due = timer.finishIfDue(at: 27)
        #expect(!early && due)
        #expect(timer.phase == .finished)
        let resumedAfterEnd = timer.resume(at: 30)
        #expect(!resumedAfterEnd)
    }
}
