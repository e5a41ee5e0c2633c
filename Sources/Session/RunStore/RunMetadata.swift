public import Foundation
public import TaskModel

/// `metadata.json`, with the keys of SageResearch's `RSDTaskMetadata` so an archive from the
/// daemon is read like one from an iPhone.
public struct RunMetadata: Codable, Sendable, Hashable {
    /// One file of the archive (`RSDFileManifest`).
    public struct File: Codable, Sendable, Hashable {
        public var filename: String
        /// The file result's start (recorder files) or when the file was written.
        public var timestamp: Date
        public var contentType: String?
        public var identifier: String?
        /// Section (and collection) path of the result, without the task identifier; absent at
        /// the task's own level.
        public var stepPath: String?

        public init(filename: String, timestamp: Date, contentType: String?, identifier: String? = nil, stepPath: String? = nil) {
            self.filename = filename
            self.timestamp = timestamp
            self.contentType = contentType
            self.identifier = identifier
            self.stepPath = stepPath
        }
    }

    public var deviceInfo: String
    public var deviceTypeIdentifier: String
    public var appName: String
    public var appVersion: String
    public var rsdFrameworkVersion: String
    public var taskIdentifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    public var endDate: Date
    public var schemaIdentifier: String?
    /// `versionString` read as an integer, as SageResearch does; absent when it is not one.
    public var schemaRevision: Int?
    public var versionString: String?
    public var files: [File]

    public init(platform: ArchivePlatform, taskResult: TaskResult, files: [File]) {
        deviceInfo = platform.deviceInfo
        deviceTypeIdentifier = platform.deviceTypeIdentifier
        appName = platform.appName
        appVersion = platform.appVersion
        rsdFrameworkVersion = platform.rsdFrameworkVersion
        taskIdentifier = taskResult.identifier
        taskRunUUID = taskResult.taskRunUUID
        startDate = taskResult.startDate
        endDate = taskResult.endDate
        schemaIdentifier = taskResult.schemaIdentifier
        versionString = taskResult.versionString
        schemaRevision = taskResult.versionString.flatMap { Int($0) }
        self.files = files
    }
}
