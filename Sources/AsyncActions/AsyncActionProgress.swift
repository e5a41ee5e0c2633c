/// A live figure a recorder reports about once a second, for a meter in the front end.
public enum AsyncActionProgress: Sendable, Hashable {
    /// The last second of audio: average (RMS) and peak level in dBFS.
    case audioLevel(averageDBFS: Double, peakDBFS: Double)
    /// Motion records written so far and the sample rate achieved over the last second (Hz).
    case motion(samplesWritten: Int, achievedRate: Double)
}
