import Testing

@testable import Voice

@Suite("Prompt stream policy: the playback stream opens, starts, stops and closes around prompts")
struct PromptStreamPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var stream: PromptStreamPolicy.Stream
        var next: PromptStreamPolicy.NextClip?
        var now: Double
        var expected: PromptStreamPolicy.Action
        /// For a held stream: seconds in the device's buffer (nil: as `playedOutAt` says).
        var buffered: Double? = nil
        var testDescription: String { name }
    }

    /// 1000 Hz so that frames read as milliseconds; open 0.5 s ahead, 0.05 s pre-roll, 1.5 s
    /// window, stopped 0.05 s after the last frame; held, 0.08 s kept queued.
    static let policy = PromptStreamPolicy(sampleRate: 1_000, openLead: 0.5, preRoll: 0.05, keepOpenWindow: 1.5, stopMargin: 0.05, heldAhead: 0.08)

    static let cases: [Case] = [
        // Closed: nothing happens until a clip is near.
        Case(name: "closed and nothing queued: sleep until something is", stream: .closed, next: nil, now: 10, expected: .wait(until: nil)),
        Case(name: "closed, a clip due in 5 s: sleep until 0.5 s before it", stream: .closed, next: .due(15), now: 10, expected: .wait(until: 14.5)),
        Case(name: "closed, a clip due within the open lead: open", stream: .closed, next: .due(10.4), now: 10, expected: .open),
        Case(name: "closed, a clip at once: open", stream: .closed, next: .atOnce, now: 10, expected: .open),
        Case(name: "closed, a clip already late: open", stream: .closed, next: .due(9), now: 10, expected: .open),
        // Stopped: no frames flow; it starts on a short pre-roll or closes.
        Case(name: "stopped, nothing queued, inside the window: wait for the window's end", stream: .stopped(since: 10), next: nil, now: 10.2, expected: .wait(until: 11.5)),
        Case(name: "stopped, nothing queued, window over: close", stream: .stopped(since: 10), next: nil, now: 11.5, expected: .close),
        Case(name: "stopped, the next clip beyond the window: close", stream: .stopped(since: 10), next: .due(12), now: 10.1, expected: .close),
        Case(name: "stopped, the next clip inside the window: wait for its pre-roll", stream: .stopped(since: 10), next: .due(11), now: 10.1, expected: .wait(until: 10.95)),
        Case(name: "stopped, within the pre-roll: write the silence that ends on the due time", stream: .stopped(since: 10), next: .due(11), now: 10.97, expected: .writeSilence(frames: 30)),
        Case(name: "stopped, due now: play", stream: .stopped(since: 10), next: .due(11), now: 11, expected: .play),
        Case(name: "stopped, late: play at once, no silence", stream: .stopped(since: 10), next: .due(10.5), now: 11, expected: .play),
        Case(name: "stopped, a clip at once: play", stream: .stopped(since: 10), next: .atOnce, now: 10, expected: .play),
        // Running: never fed silence to stay alive.
        Case(name: "running, nothing queued: wait until the last frame is heard", stream: .running(playedOutAt: 12), next: nil, now: 11.9, expected: .wait(until: 12.05)),
        Case(name: "running, nothing queued, played out: stop", stream: .running(playedOutAt: 12), next: nil, now: 12.05, expected: .stop),
        Case(name: "running, a clip at once: queue it behind", stream: .running(playedOutAt: 12), next: .atOnce, now: 11.9, expected: .play),
        Case(name: "running, a clip due before the end: queue it behind", stream: .running(playedOutAt: 12), next: .due(11.5), now: 11.9, expected: .play),
        Case(name: "running, a short gap: bridge it with silence", stream: .running(playedOutAt: 12), next: .due(12.08), now: 11.9, expected: .writeSilence(frames: 80)),
        Case(name: "running, a long gap: let it play out", stream: .running(playedOutAt: 12), next: .due(13), now: 11.9, expected: .wait(until: 12.05)),
        Case(name: "running, a long gap, played out: stop", stream: .running(playedOutAt: 12), next: .due(13), now: 12.06, expected: .stop),
    ]

    @Test("Next action", arguments: cases)
    func nextAction(_ testCase: Case) {
        #expect(Self.policy.action(stream: testCase.stream, next: testCase.next, now: testCase.now) == testCase.expected)
    }

    /// Held (a task runs): 0.08 s of silence kept ahead, topped up when half has played.
    static let heldCases: [Case] = [
        Case(name: "held, closed: open at once, nothing queued", stream: .closed, next: nil, now: 10, expected: .open),
        Case(name: "held, closed, a clip far ahead: open", stream: .closed, next: .due(20), now: 10, expected: .open),
        Case(name: "held, just opened: silence up to 0.08 s ahead starts it", stream: .stopped(since: 10), next: nil, now: 10, expected: .writeSilence(frames: 80)),
        Case(name: "held, running, 0.05 s queued: wait until 0.04 s is left", stream: .running(playedOutAt: 10.05), next: nil, now: 10, expected: .wait(until: 10.05 - 0.08 / 2)),
        Case(name: "held, running, 0.03 s queued: top up to 0.08 s", stream: .running(playedOutAt: 10.03), next: nil, now: 10, expected: .writeSilence(frames: 50)),
        Case(name: "held, ran dry: silence from now", stream: .running(playedOutAt: 9), next: nil, now: 10, expected: .writeSilence(frames: 80)),
        Case(name: "held, never stopped when played out", stream: .running(playedOutAt: 10.07), next: nil, now: 10.06, expected: .writeSilence(frames: 70)),
        Case(name: "held, a clip due within the horizon: the silence that ends on its due time", stream: .running(playedOutAt: 10.03), next: .due(10.07), now: 10, expected: .writeSilence(frames: 40)),
        Case(name: "held, a clip due when the queue ends: play", stream: .running(playedOutAt: 10.05), next: .due(10.05), now: 10, expected: .play),
        Case(name: "held, a clip already late: play", stream: .running(playedOutAt: 10.05), next: .due(9.5), now: 10, expected: .play),
        Case(name: "held, a clip at once: play behind what is queued", stream: .running(playedOutAt: 10.05), next: .atOnce, now: 10, expected: .play),
        Case(name: "held, a clip past what may be queued: wait until half has played", stream: .running(playedOutAt: 10.08), next: .due(10.1), now: 10, expected: .wait(until: 10 + (10.08 - 10) - 0.08 / 2)),
        // A device with 0.5 s of its own latency: its buffer's fill paces the top-ups, its delay places the clips.
        Case(name: "held, 0.5 s latency, 0.03 s buffered: top up", stream: .running(playedOutAt: 10.53), next: nil, now: 10, expected: .writeSilence(frames: 50), buffered: 0.03),
        Case(name: "held, 0.5 s latency, 0.05 s buffered: wait", stream: .running(playedOutAt: 10.55), next: nil, now: 10, expected: .wait(until: 10 + 0.05 - 0.08 / 2), buffered: 0.05),
        Case(name: "held, 0.5 s latency, a clip heard 0.03 s after the last frame: its silence", stream: .running(playedOutAt: 10.53), next: .due(10.56), now: 10, expected: .writeSilence(frames: 30), buffered: 0.03),
        Case(name: "held, 0.5 s latency, a clip 0.2 s on: top up, not past it", stream: .running(playedOutAt: 10.53), next: .due(10.73), now: 10, expected: .writeSilence(frames: 50), buffered: 0.03),
        Case(name: "held, a clip far ahead: top up, never past the horizon", stream: .running(playedOutAt: 10.02), next: .due(15), now: 10, expected: .writeSilence(frames: 60)),
    ]

    @Test("Next action of a held stream", arguments: heldCases)
    func nextHeldAction(_ testCase: Case) {
        #expect(Self.policy.action(stream: testCase.stream, next: testCase.next, now: testCase.now, held: true, buffered: testCase.buffered) == testCase.expected)
    }

    /// Held ahead less than the start threshold (the default: 25 ms against a 50 ms pre-roll):
    /// a stopped stream is filled to the threshold, so silence alone starts it; once running,
    /// it is kept `heldAhead` ahead, so a clip spoken at once waits behind less.
    static let shallow = PromptStreamPolicy(sampleRate: 1_000, openLead: 0.5, preRoll: 0.05, keepOpenWindow: 1.5, stopMargin: 0.05, heldAhead: 0.02)
    static let shallowCases: [Case] = [
        Case(name: "shallow, just opened: silence up to the start threshold", stream: .stopped(since: 10), next: nil, now: 10, expected: .writeSilence(frames: 50)),
        Case(name: "shallow, running, 0.05 s queued after the start: wait until 0.01 s is left", stream: .running(playedOutAt: 10.05), next: nil, now: 10, expected: .wait(until: 10 + (10.05 - 10) - 0.02 / 2)),
        Case(name: "shallow, running, 0.005 s queued: top up to 0.02 s", stream: .running(playedOutAt: 10.005), next: nil, now: 10, expected: .writeSilence(frames: 15)),
        Case(name: "shallow, just opened, a clip due in 0.04 s: its silence", stream: .stopped(since: 10), next: .due(10.04), now: 10, expected: .writeSilence(frames: 40)),
        Case(name: "shallow, running, a clip at once: play", stream: .running(playedOutAt: 10.01), next: .atOnce, now: 10, expected: .play),
    ]

    @Test("Next action of a held stream kept less far ahead than its start threshold", arguments: shallowCases)
    func nextShallowHeldAction(_ testCase: Case) {
        #expect(Self.shallow.action(stream: testCase.stream, next: testCase.next, now: testCase.now, held: true, buffered: testCase.buffered) == testCase.expected)
    }

    /// Drives the policy the way the playback thread does, with an ideal device, and returns the
    /// actions taken: a prompt 3 s after the stream was last used costs an open, a pre-roll, the
    /// clip, a stop and a close, and nothing in between.
    @Test("A lone timed prompt: opened ahead, pre-roll, clip, stopped, closed; no silence in between")
    func lonePrompt() {
        let policy = Self.policy
        var stream = PromptStreamPolicy.Stream.closed
        var now = 0.0
        var queue: [Double] = [3]  // due times; the clip lasts 1 s
        var log: [String] = []
        var silenceFrames = 0
        for _ in 0..<20 {
            let action = policy.action(stream: stream, next: queue.first.map { .due($0) }, now: now)
            switch action {
            case .wait(let until):
                guard let until else { log.append("idle"); return finish() }
                log.append("wait \(until)")
                now = until
            case .open:
                log.append("open")
                stream = .stopped(since: now)
            case .close:
                log.append("close")
                stream = .closed
            case .stop:
                log.append("stop")
                stream = .stopped(since: now)
            case .writeSilence(let frames):
                log.append("silence \(frames)")
                silenceFrames += frames
                stream = .running(playedOutAt: now + Double(frames) / 1_000)
            case .play:
                let start: Double = if case .running(let end) = stream { end } else { now }
                log.append("play at \(start)")
                queue.removeFirst()
                stream = .running(playedOutAt: start + 1)
            }
        }
        Issue.record("the policy did not settle: \(log)")

        func finish() {
            #expect(log == ["wait 2.5", "open", "wait 2.95", "silence 50", "play at 3.0", "wait 4.05", "stop", "wait 5.55", "close", "idle"])
            #expect(silenceFrames == 50)
        }
    }

    /// Drives a held stream with an ideal device for 2 s: each clip starts exactly on its due
    /// time, the stream never stops or closes, and it is never more than `heldAhead` ahead.
    @Test("A held stream places every clip on its due time and never stops")
    func heldStreamPlacesClips() {
        let policy = Self.policy
        var stream = PromptStreamPolicy.Stream.closed
        var now = 0.0
        var queue: [Double] = [0.5, 0.55, 1.234]  // due times; each clip lasts 0.1 s
        var starts: [Double] = []
        var stops = 0
        while now < 2 {
            switch policy.action(stream: stream, next: queue.first.map { .due($0) }, now: now, held: true) {
            case .wait(let until):
                guard let until, until > now else { Issue.record("a held stream waited without a deadline at \(now)"); return }
                now = until
            case .open:
                stream = .stopped(since: now)
            case .close, .stop:
                stops += 1
                stream = .stopped(since: now)
            case .writeSilence(let frames):
                let start: Double = if case .running(let end) = stream { max(end, now) } else { now }
                stream = .running(playedOutAt: start + Double(frames) / 1_000)
            case .play:
                let start: Double = if case .running(let end) = stream { max(end, now) } else { now }
                starts.append(start)
                queue.removeFirst()
                stream = .running(playedOutAt: start + 0.1)
                // Writing a clip blocks until the buffer has room: about until it starts.
                now = max(now, start)
            }
            if case .running(let end) = stream { #expect(end - now <= 0.1 + 1e-9, "queued too far ahead at \(now)") }
        }
        #expect(stops == 0)
        // The second clip is due while the first plays: it follows it at once.
        #expect(zip(starts, [0.5, 0.6, 1.234]).allSatisfy { abs($0 - $1) < 0.0011 }, "\(starts)")
    }

    @Test("The keep-open window is never shorter than the open lead")
    func windowCoversOpenLead() {
        let policy = PromptStreamPolicy(sampleRate: 22_050, openLead: 2, keepOpenWindow: 1)
        #expect(policy.keepOpenWindow == 2)
        // Opened 2 s ahead, the stream is not closed again before its clip.
        #expect(policy.action(stream: .stopped(since: 0), next: .due(2), now: 0) == .wait(until: 2 - policy.preRoll))
    }
}

@Suite("Clip cache: bounded in bytes, least recently used dropped first")
struct ClipCacheTests {
    private func clip(_ frames: Int) -> AudioClip { AudioClip(samples: [Int16](repeating: 1, count: frames), sampleRate: 1_000) }

    @Test("Inserting past the budget drops the least recently used clips")
    func evictsLeastRecentlyUsed() {
        var cache = ClipCache(budgetBytes: 1_000)  // 500 frames
        cache.insert(clip(200), for: "a")
        cache.insert(clip(200), for: "b")
        _ = cache.clip(for: "a")  // "b" is now the oldest
        cache.insert(clip(200), for: "c")
        #expect(cache.keys == ["a", "c"])
        #expect(cache.bytes == 800)
        #expect(cache.clip(for: "b") == nil)
    }

    @Test("A clip larger than the budget is not kept, and replacing a key keeps one copy")
    func oversizedAndReplaced() {
        var cache = ClipCache(budgetBytes: 1_000)
        cache.insert(clip(100), for: "a")
        cache.insert(clip(600), for: "huge")
        #expect(cache.keys == ["a"])
        cache.insert(clip(300), for: "a")
        #expect(cache.keys == ["a"])
        #expect(cache.bytes == 600)
    }
}
