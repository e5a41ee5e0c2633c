public import Foundation

/// Which finished runs the store deletes, oldest first: the configuration's `retention` object
/// (docs/configuration.md, docs/runs.md "Retention"). A limit of 0 is no limit.
public struct RetentionPolicy: Sendable, Hashable {
    /// Keep at most this many finished runs whole, newest first; 0 keeps every run.
    public var maxRuns: Int
    /// Keep finished runs whole for at most this many days after they ended; 0 keeps runs of
    /// any age.
    public var maxAgeDays: Double
    /// With true, a run past the limits whose archive no uploader confirmed collecting
    /// (`RunStore.markCollected`) keeps its archive and manifest (its other files go, the archive
    /// holds them all) until it is collected, and a finished run with no archive is left whole;
    /// with false, such runs are removed whole like collected ones.
    public var keepUncollectedArchives: Bool

    public init(maxRuns: Int = 100, maxAgeDays: Double = 90, keepUncollectedArchives: Bool = true) {
        self.maxRuns = maxRuns
        self.maxAgeDays = maxAgeDays
        self.keepUncollectedArchives = keepUncollectedArchives
    }

    /// Whether the finished run at `rank` (0 is the newest) that ended `age` seconds ago is past
    /// the policy's limits.
    public func isPastLimits(rank: Int, age: TimeInterval) -> Bool {
        let tooMany = maxRuns > 0 && rank >= maxRuns
        let tooOld = maxAgeDays > 0 && age > maxAgeDays * 86_400
        return tooMany || tooOld
    }
}
