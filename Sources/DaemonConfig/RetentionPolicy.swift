/// Which finished runs the daemon deletes from the data directory, oldest first.
public struct RetentionPolicy: Sendable, Hashable {
    /// Keep at most this many finished runs; 0 keeps every run.
    public var maxRuns: Int
    /// Delete finished runs older than this many days; 0 keeps runs of any age.
    public var maxAgeDays: Double
    /// Never delete a run whose archive a front end has not confirmed it collected.
    public var keepUncollectedArchives: Bool

    public init(maxRuns: Int = 100, maxAgeDays: Double = 90, keepUncollectedArchives: Bool = true) {
        self.maxRuns = maxRuns
        self.maxAgeDays = maxAgeDays
        self.keepUncollectedArchives = keepUncollectedArchives
    }
}
