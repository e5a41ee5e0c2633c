public import Foundation

/// What a session and its run store need to judge a finished run (docs/session.md, "Voice and
/// quality"; docs/quality.md): the host adapts its checks to it (the daemon adapts Quality's).
public protocol RunQualityChecking: Sendable {
    associatedtype Report: RunQualityReport
    /// The report's file name in the run directory (`qc.json`).
    var reportFileName: String { get }
    /// Judges the finished run in `runDirectory` from its files and writes the report there.
    /// Blocks on the disk: call it off the actor.
    func writeReport(runDirectory: URL) throws -> Report
}
