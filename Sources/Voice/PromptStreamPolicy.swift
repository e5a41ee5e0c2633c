/// When the prompt player's playback stream is opened, started, stopped and closed, and how much
/// silence it writes: the playback thread's decisions, lifted out of its I/O loop so they are
/// tested without a device (docs/audio.md, "Voice prompts").
///
/// The stream costs nothing between prompts: it is closed while no clip is near, opened
/// `openLead` before one is due, started with at most `preRoll` of silence ahead of a timed
/// clip (so the clip's first frame falls on its due time), and stopped as soon as its last
/// written frame has been heard. Silence is never written to keep an idle stream running.
///
/// While a task runs the stream is *held* instead (`action(stream:next:now:held:)`): opened
/// and running from the task's start, fed just enough silence to stay `heldAhead` ahead of the
/// device, so the device's delay is settled and reported by the time the first prompt is due
/// (a fresh PulseAudio stream first reported its delay 0.3 s short; docs/audio.md). The cost is
/// a wake-up every `heldAhead / 2` seconds and the sound server mixing, for the run only.
///
/// Measured through PulseAudio (docs/benchmarks.md, "Voice prompt onsets"): opening and
/// configuring the PCM takes about 1 ms, a stopped stream starts within 15 ms, and any open
/// stream keeps the sound server mixing (0.5 % of a core for a null sink), so a stream is kept
/// open only across short gaps (`keepOpenWindow`), as between countdown prompts.
public struct PromptStreamPolicy: Sendable, Hashable {
    /// What the playback stream is doing.
    public enum Stream: Sendable, Hashable {
        /// No PCM is open.
        case closed
        /// Open and prepared, nothing queued: no frames flow. `since` is the CLOCK_MONOTONIC time
        /// it was opened or stopped.
        case stopped(since: Double)
        /// Frames are queued; the last one written is heard by CLOCK_MONOTONIC `playedOutAt`.
        case running(playedOutAt: Double)
    }

    /// When the next queued clip should be heard.
    public enum NextClip: Sendable, Hashable {
        /// As soon as possible (after what is already queued).
        case atOnce
        /// Its first frame at this CLOCK_MONOTONIC time (at once if that has passed).
        case due(Double)
    }

    /// What the playback thread does next.
    public enum Action: Sendable, Hashable {
        /// Sleep until this CLOCK_MONOTONIC time, or until a clip is queued or removed; nil = no deadline.
        case wait(until: Double?)
        /// Open and configure the PCM (it is then `.stopped`).
        case open
        /// Close the PCM.
        case close
        /// Every written frame has been heard: stop the stream (nothing audible is dropped) and
        /// prepare it for the next start.
        case stop
        /// Write this many frames of silence, so that the next clip starts on its due time.
        case writeSilence(frames: Int)
        /// Write the next clip.
        case play
    }

    /// Seconds before a clip is due at which a closed stream is opened (PCM open, configure and
    /// the sound server's stream set-up; a suspended sound card may need to resume).
    public var openLead: Double
    /// Longest stretch of silence written ahead of a timed clip, in seconds: the stream starts
    /// that much before the clip, so its start-up happens before the clip's first frame.
    public var preRoll: Double
    /// A stopped stream stays open while the next clip is due within this many seconds (or,
    /// with nothing queued, for this long after it stopped); otherwise it is closed.
    public var keepOpenWindow: Double
    /// How long after its last frame is due to be heard a stream is stopped; covers the error of
    /// the stream's delay report, so the end of a clip is never cut.
    public var stopMargin: Double
    /// Seconds of silence a held stream keeps queued ahead of the device once it runs: topped up
    /// when half of it has played; a clip spoken at once waits behind at most this much. A
    /// stopped stream is filled to `preRoll` (the start threshold) at least, so that silence
    /// alone starts it. Not less than 50 ms by default: with 25 ms (topped up at 12.5 ms, about
    /// one 256-frame period) the demo's PulseAudio stream ran dry 35 times in one run.
    public var heldAhead: Double
    /// Frames per second.
    public var sampleRate: Int

    public init(sampleRate: Int, openLead: Double = 0.5, preRoll: Double = 0.05, keepOpenWindow: Double = 1.5, stopMargin: Double = 0.05,
                heldAhead: Double = 0.05) {
        self.sampleRate = max(sampleRate, 1)
        self.openLead = max(openLead, 0)
        self.preRoll = max(preRoll, 0)
        // Below 10 ms the thread would wake more often than the device's periods come.
        self.heldAhead = max(heldAhead, 0.01)
        // Opening ahead must not fall outside the window, or a stream opened early would be
        // closed again at once.
        self.keepOpenWindow = max(keepOpenWindow, self.openLead)
        self.stopMargin = max(stopMargin, 0)
    }

    /// The frames of silence that fill `seconds`; zero below half a frame.
    public func frames(for seconds: Double) -> Int {
        max(Int((seconds * Double(sampleRate)).rounded()), 0)
    }

    /// The next step for a stream in state `stream` at CLOCK_MONOTONIC `now`, with `next` the
    /// head of the queue (nil when nothing is queued). A `held` stream (a task is running) is
    /// opened at once and kept running on silence instead of being stopped or closed;
    /// `buffered` is then the seconds of written frames the device has not taken yet (its
    /// buffer's fill, which excludes the device's own latency that `playedOutAt` includes;
    /// nil: an ideal device with no latency, where the two agree).
    public func action(stream: Stream, next: NextClip?, now: Double, held: Bool = false, buffered: Double? = nil) -> Action {
        if held { return heldAction(stream: stream, next: next, now: now, buffered: buffered) }
        switch stream {
        case .closed:
            guard let next else { return .wait(until: nil) }
            switch next {
            case .atOnce:
                return .open
            case .due(let due):
                return due - now <= openLead ? .open : .wait(until: due - openLead)
            }

        case .stopped(let since):
            guard let next else {
                let closeAt = since + keepOpenWindow
                return now >= closeAt ? .close : .wait(until: closeAt)
            }
            switch next {
            case .atOnce:
                return .play
            case .due(let due):
                let lead = due - now
                if lead > keepOpenWindow { return .close }
                if lead > preRoll { return .wait(until: due - preRoll) }
                let silence = frames(for: lead)
                return silence > 0 ? .writeSilence(frames: silence) : .play
            }

        case .running(let playedOutAt):
            let stopAt = playedOutAt + stopMargin
            guard let next else { return now >= stopAt ? .stop : .wait(until: stopAt) }
            switch next {
            case .atOnce:
                return .play
            case .due(let due):
                let gap = due - playedOutAt
                // A gap no longer than a stop and a restart would take is bridged with silence;
                // a longer one lets the stream stop (and start again `preRoll` before the clip)
                // rather than feed it silence. Then `stopAt` comes before `due - preRoll`.
                if gap > preRoll + stopMargin { return now >= stopAt ? .stop : .wait(until: stopAt) }
                let silence = frames(for: gap)
                return silence > 0 ? .writeSilence(frames: silence) : .play
            }
        }
    }

    /// A held stream: open, running, at most `heldAhead` of silence in the device's buffer, each
    /// clip placed on its due time by the silence before it (against `playedOutAt`, which
    /// includes the device's delay). A stopped stream (just opened, or stopped before the hold)
    /// is treated as one whose last frame is heard now: the silence written starts it, so it is
    /// at least `preRoll`.
    private func heldAction(stream: Stream, next: NextClip?, now: Double, buffered: Double?) -> Action {
        let playedOutAt: Double
        var target = heldAhead
        switch stream {
        case .closed: return .open
        case .stopped:
            playedOutAt = now
            target = max(heldAhead, preRoll)
        // Past frames are no help: after a gap the next frame is heard from now on.
        case .running(let end): playedOutAt = max(end, now)
        }
        if next == .atOnce { return .play }
        let ahead = max(buffered ?? (playedOutAt - now), 0)
        let room = target - ahead
        var gap: Double?
        if case .due(let due) = next {
            gap = due - playedOutAt
            if let gap, gap <= room {
                let silence = frames(for: gap)
                return silence > 0 ? .writeSilence(frames: silence) : .play
            }
        }
        // Half a frame of slack: a wait shorter than that would not move the clock.
        if ahead - heldAhead / 2 > 0.5 / Double(sampleRate) { return .wait(until: now + ahead - heldAhead / 2) }
        let fill = frames(for: min(room, gap ?? room))
        return fill > 0 ? .writeSilence(frames: fill) : .wait(until: now + ahead)
    }
}
