public import Foundation

/// How many finished runs the store keeps (docs/runs.md). A run past the policy loses its
/// recorder and result files but keeps its manifest and archive until an uploader confirms it
/// collected the archive (`RunStore.markCollected`); a collected run past the policy is removed.
public struct RetentionPolicy: Sendable, Hashable {
    /// Keep at most this many finished runs whole, newest first; nil for no limit.
    public var keepCount: Int?
    /// Keep finished runs whole for at most this many seconds after they ended; nil for no limit.
    public var maximumAge: TimeInterval?

    public init(keepCount: Int? = nil, maximumAge: TimeInterval? = nil) {
        self.keepCount = keepCount
        self.maximumAge = maximumAge
    }
}
