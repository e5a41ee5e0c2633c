public import Foundation

/// The result of a task run, as SageResearch 4 writes `taskResult.json` (JsonModel's
/// `AssessmentResult`): `{type: "task", identifier, taskRunUUID, startDate, endDate,
/// stepHistory, asyncResults, path, assessmentIdentifier, schemaIdentifier, versionString}`.
///
/// `endDate` is written once the run has ended and `asyncResults` once there is one; both may
/// be absent when read. `stepHistory` only grows; `path` is the current path (docs/runs.md).
public struct TaskResult: ResultData {
    public var identifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    /// When the run ended; nil while it runs.
    public var endDateTime: Date?
    public var stepHistory: [AnyResult]
    public var asyncResults: [AnyResult]
    public var path: [PathMarker]
    /// The identifier of the assessment the scheduling service asked for, when it differs.
    public var assessmentIdentifier: String?
    public var schemaIdentifier: String?
    public var versionString: String?

    public var resultType: ResultType { .task }

    /// The end of the run, or its start while it has not ended (JsonModel's convention).
    public var endDate: Date {
        get { endDateTime ?? startDate }
        set { endDateTime = newValue }
    }

    public init(identifier: String, taskRunUUID: UUID = UUID(), startDate: Date, endDate: Date? = nil,
                stepHistory: [AnyResult] = [], asyncResults: [AnyResult] = [], path: [PathMarker] = [],
                assessmentIdentifier: String? = nil, schemaIdentifier: String? = nil, versionString: String? = nil) {
        self.identifier = identifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDateTime = endDate
        self.stepHistory = stepHistory
        self.asyncResults = asyncResults
        self.path = path
        self.assessmentIdentifier = assessmentIdentifier
        self.schemaIdentifier = schemaIdentifier
        self.versionString = versionString
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: BranchResultKeys.self)
        let body = try BranchResultBody(from: container)
        self.init(identifier: try container.decode(String.self, forKey: .identifier),
                  taskRunUUID: try container.decode(UUID.self, forKey: .taskRunUUID),
                  startDate: body.startDate, endDate: body.endDateTime,
                  stepHistory: body.stepHistory, asyncResults: body.asyncResults, path: body.path,
                  assessmentIdentifier: try container.decodeIfPresent(String.self, forKey: .assessmentIdentifier),
                  schemaIdentifier: try container.decodeIfPresent(String.self, forKey: .schemaIdentifier),
                  versionString: try container.decodeIfPresent(String.self, forKey: .versionString))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: BranchResultKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(taskRunUUID, forKey: .taskRunUUID)
        try BranchResultBody(startDate: startDate, endDateTime: endDateTime, stepHistory: stepHistory,
                             asyncResults: asyncResults, path: path).encode(to: &container)
        try container.encodeIfPresent(assessmentIdentifier, forKey: .assessmentIdentifier)
        try container.encodeIfPresent(schemaIdentifier, forKey: .schemaIdentifier)
        try container.encodeIfPresent(versionString, forKey: .versionString)
    }
}
