/// What `PromptPlayer`'s callers and its playback thread share (under one `ConditionGuarded`
/// lock): the clips waiting, the one playing, and the requests and reports between them. The
/// stream itself is not here: the playback thread owns it (`PromptPlayback`).
struct PromptQueue {
    /// Clips waiting, in the order they fall due (clips due at once first).
    var waiting: [PromptPlayer.Item] = []
    /// The clip the thread is playing, taken from `waiting` (its duration bounds a wait for it).
    var playing: PromptPlayer.Item?
    /// When the last clip played will have been heard to its end (CLOCK_MONOTONIC).
    var heardUntil = -Double.infinity
    /// While a held stream runs: when a frame written next would be heard (CLOCK_MONOTONIC),
    /// behind the silence already written and the device's delay, and since when it has run.
    var heldHeardFrom: Double?
    var heldRunningSince: Double?
    /// The player is shutting down: the thread ends after the chunk it is writing.
    var stopRequested = false
    /// Set by `PromptPlayer.requestCut(where:)`: the clip playing ends after the chunk being written.
    var cutRequested = false
    /// While true (a task runs) the stream is kept open and running on silence.
    var held = false

    /// Queues `item` behind every clip due no later than it.
    mutating func insert(_ item: PromptPlayer.Item) {
        let position = waiting.firstIndex { ($0.due ?? -.infinity) > (item.due ?? -.infinity) } ?? waiting.endIndex
        waiting.insert(item, at: position)
    }

    /// Whether nothing is queued or playing.
    var isIdle: Bool { waiting.isEmpty && playing == nil }

    /// A held stream's running figures are known no longer (it stopped, closed or is not held).
    mutating func forgetHeldStream() {
        heldHeardFrom = nil
        heldRunningSince = nil
    }

    /// The held stream wrote frames that will be heard from `heardFrom` on; `now` starts its
    /// settling time if it had not started.
    mutating func heldStreamWrote(heardFrom: Double, now: Double) {
        if heldRunningSince == nil { heldRunningSince = now }
        heldHeardFrom = heardFrom
    }
}
