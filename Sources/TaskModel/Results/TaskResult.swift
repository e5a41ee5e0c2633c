public import Foundation

/// The result of a task run: `{type: "task", identifier, taskRunUUID, startDate, endDate,
/// stepHistory, asyncResults}`, as SageResearch writes `taskResult.json`.
public struct TaskResult: ResultData {
    public var identifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    public var endDate: Date
    public var stepHistory: [AnyResult]
    public var asyncResults: [AnyResult]

    public var resultType: ResultType { .task }

    public init(identifier: String, taskRunUUID: UUID = UUID(), startDate: Date, endDate: Date,
                stepHistory: [AnyResult] = [], asyncResults: [AnyResult] = []) {
        self.identifier = identifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDate = endDate
        self.stepHistory = stepHistory
        self.asyncResults = asyncResults
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, taskRunUUID, startDate, endDate, stepHistory, asyncResults
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        taskRunUUID = try container.decode(UUID.self, forKey: .taskRunUUID)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        stepHistory = try container.decodeIfPresent([AnyResult].self, forKey: .stepHistory) ?? []
        asyncResults = try container.decodeIfPresent([AnyResult].self, forKey: .asyncResults) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(taskRunUUID, forKey: .taskRunUUID)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(stepHistory, forKey: .stepHistory)
        try container.encode(asyncResults, forKey: .asyncResults)
    }
}
