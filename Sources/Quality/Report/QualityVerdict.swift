/// How usable a recording is: `ok`, `warning` (usable, look at it) or `failed` (repeat it).
/// Ordered so that the worst of several verdicts is their maximum.
public enum QualityVerdict: String, Codable, Sendable, Hashable, Comparable, CaseIterable {
    case ok
    case warning
    case failed

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warning: 1
        case .failed: 2
        }
    }

    public static func < (lhs: QualityVerdict, rhs: QualityVerdict) -> Bool { lhs.rank < rhs.rank }

    /// The verdict for `value` against two limits: `failed` at or beyond `failed`, `warning` at
    /// or beyond `warning`, else `ok` (larger values are worse).
    public static func grading(_ value: Double, warning: Double, failed: Double) -> QualityVerdict {
        if value >= failed { return .failed }
        if value >= warning { return .warning }
        return .ok
    }
}
