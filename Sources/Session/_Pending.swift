// TEMPORARY until the run store lands: the calls the session makes.
public import Foundation
public struct RunDirectory: Sendable {
    public var url: URL
    public var taskRunUUID: UUID
    func delete() throws {}
}
public struct ArchiveInfo: Sendable { public init() {} }
struct PromptRecord: Sendable, Codable { var stepPath: String; var text: String; var scheduledUptime: Double?; var spokenUptime: Double? }
extension TaskSession {
    func writeManifest() {}
    @discardableResult func writeResults(endDate: Date, reason: FinishReason?) -> URL? { nil }
}
