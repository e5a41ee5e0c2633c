public import Foundation

/// A result of a step, a section, a task or an async action, encoded with SageResearch's keys.
///
/// Dates encode with `Timestamp.encodingStrategy` (ISO 8601 with milliseconds and offset).
public protocol ResultData: Codable, Sendable {
    var identifier: String { get }
    var resultType: ResultType { get }
    var startDate: Date { get }
    var endDate: Date { get }
}
