/// How a prompt's onset (when its first frame was heard) was measured: the best measure the
/// device gives (prompts.json's `heardBy`, docs/audio.md "Voice prompts").
public enum OnsetMeasure: String, Sendable, Hashable, CaseIterable {
    /// The device's status time plus the delay it reported ahead of the clip at its first
    /// write, confirmed within 20 ms by its last report while the clip played (from about
    /// 100 ms into the clip, before any break in the stream).
    case deviceDelay
    /// The device's report at the first write only: the clip ended (or the run was saved)
    /// before a second report.
    case deviceDelayFirstReport
    /// The last report while the clip played placed the onset more than 20 ms later than the
    /// first one, or the first had no delay (a stream whose sound server had not yet told it
    /// its latency, a device whose buffer was empty as it started): the later report is the onset.
    case deviceDelayLaterReport
    /// The device reports no delay (it takes frames as fast as they come, like ALSA's `file`
    /// plugin over `null`): the onset is when the first frame was handed to it.
    case handedToDevice

    /// The tolerance within which a later report confirms the first.
    public static let confirmationTolerance = 0.02

    /// The measure and onset from the first write's estimate and, when the clip was long enough,
    /// the one made from a later report (both CLOCK_MONOTONIC seconds of the first frame), each
    /// with whether the device reported a delay for the frames just written. Pure, so that the
    /// choice is tested by itself.
    ///
    /// A stream that has just started may report no delay at its first write although it has
    /// one (a device whose buffer was empty and fills as it starts, a sound server that has not
    /// yet sent its timing): a later report that has a delay then wins.
    public static func judge(first: Double, firstReported: Bool, later: Double?, laterReported: Bool) -> (onset: Double, measure: OnsetMeasure) {
        if let later, laterReported {
            if !firstReported || later - first > confirmationTolerance { return (max(later, first), .deviceDelayLaterReport) }
            return (first, .deviceDelay)
        }
        return (first, firstReported ? .deviceDelayFirstReport : .handedToDevice)
    }
}
