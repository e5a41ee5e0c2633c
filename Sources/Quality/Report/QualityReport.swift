public import Foundation
import SystemCalls

/// The quality of a run: `{"verdict", "checks": [...]}`, the verdict the worst of the checks.
/// Written as `qc.json` in the run directory.
public struct QualityReport: Codable, Sendable, Hashable {
    public var verdict: QualityVerdict
    public var checks: [QualityCheck]

    /// A report of `checks`, its verdict the worst of them (`ok` when there are none).
    public init(checks: [QualityCheck]) {
        self.checks = checks
        verdict = checks.map(\.verdict).max() ?? .ok
    }

    /// The file name in the run directory.
    public static let fileName = "qc.json"

    /// The report as JSON (pretty-printed, keys sorted, slashes unescaped).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the report to `url` atomically and durably (a reader never sees half a file, a
    /// power cut leaves the old one or the new one: SystemCalls' `DurableFile`).
    public func write(to url: URL) throws {
        try DurableFile.write(Array(encoded()), to: url.path)
    }

    /// The checks with `verdict` or worse.
    public func checks(atLeast verdict: QualityVerdict) -> [QualityCheck] {
        checks.filter { $0.verdict >= verdict }
    }
}
