import Clocks

/// Cuts the captured stream into runs that end on levels-window boundaries: samples as read,
/// and silence standing in for a recovered gap. Pure bookkeeping, so the recorder's time axis
/// (WAV frames = levels windows = audio seconds) is tested without a device.
struct LevelWindowing: Sendable, Hashable {
    /// One run handed to the recorder.
    struct Run: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            /// `count` frames of the current read, from frame `offset`.
            case samples(offset: Int)
            /// `count` frames of silence.
            case silence
        }

        var kind: Kind
        var count: Int
        /// Whether this run completes a levels window.
        var closesWindow: Bool
        /// Frames since the start once this run is written.
        var endFrame: Int
    }

    /// Frames per levels window.
    let windowFrames: Int
    /// Frames after which the recording stops by itself; nil = no limit.
    let frameLimit: Int?
    /// Frames in the window being filled.
    private(set) var windowFill = 0
    /// Frames so far.
    private(set) var totalFrames = 0

    init(windowFrames: Int, frameLimit: Int?) {
        self.windowFrames = max(windowFrames, 1)
        self.frameLimit = frameLimit
    }

    /// Whether the frame limit has been reached.
    var isComplete: Bool { frameLimit.map { totalFrames >= $0 } ?? false }

    /// How many frames the next read may ask for.
    func framesToRead(period: Int) -> Int {
        guard let frameLimit else { return period }
        return max(min(period, frameLimit - totalFrames), 0)
    }

    /// Frames of silence for a gap of `seconds`, leaving room for `followingFrames` already read
    /// under the frame limit.
    func silenceFrames(forGap seconds: Double, rate: Double, followingFrames: Int) -> Int {
        let frames = Int(saturating: (max(seconds, 0) * rate).rounded())
        guard let frameLimit else { return frames }
        return max(min(frames, frameLimit - totalFrames - followingFrames), 0)
    }

    /// Splits `count` silent frames at window boundaries.
    mutating func addSilence(_ count: Int, _ body: (Run) throws -> Void) rethrows {
        try split(count, kind: { _ in .silence }, body)
    }

    /// Splits `count` frames of the current read at window boundaries.
    mutating func addSamples(_ count: Int, _ body: (Run) throws -> Void) rethrows {
        try split(count, kind: { .samples(offset: $0) }, body)
    }

    private mutating func split(_ count: Int, kind: (Int) -> Run.Kind, _ body: (Run) throws -> Void) rethrows {
        var consumed = 0
        while consumed < count {
            let step = min(count - consumed, windowFrames - windowFill)
            windowFill += step
            totalFrames += step
            let closes = windowFill == windowFrames
            if closes { windowFill = 0 }
            try body(Run(kind: kind(consumed), count: step, closesWindow: closes, endFrame: totalFrames))
            consumed += step
        }
    }
}
