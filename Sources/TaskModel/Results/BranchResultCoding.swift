import Foundation

/// The keys task and section results share (JsonModel's branch-node result) and their coding
/// rules: `endDate` and `asyncResults` are written only when present and may be absent when read.
enum BranchResultKeys: String, CodingKey {
    case type, identifier, taskRunUUID, startDate, endDate, stepHistory, asyncResults, path
    case assessmentIdentifier, schemaIdentifier, versionString, skipToIdentifier
}

/// The parts of a branch result that task and section results code the same way.
struct BranchResultBody {
    var startDate: Date
    var endDateTime: Date?
    var stepHistory: [AnyResult]
    var asyncResults: [AnyResult]
    var path: [PathMarker]

    init(startDate: Date, endDateTime: Date?, stepHistory: [AnyResult], asyncResults: [AnyResult], path: [PathMarker]) {
        self.startDate = startDate
        self.endDateTime = endDateTime
        self.stepHistory = stepHistory
        self.asyncResults = asyncResults
        self.path = path
    }

    init(from container: KeyedDecodingContainer<BranchResultKeys>) throws {
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDateTime = try container.decodeIfPresent(Date.self, forKey: .endDate)
        stepHistory = try container.decodeIfPresent([AnyResult].self, forKey: .stepHistory) ?? []
        asyncResults = try container.decodeIfPresent([AnyResult].self, forKey: .asyncResults) ?? []
        path = try container.decodeIfPresent([PathMarker].self, forKey: .path) ?? []
    }

    func encode(to container: inout KeyedEncodingContainer<BranchResultKeys>) throws {
        try container.encode(startDate, forKey: .startDate)
        try container.encodeIfPresent(endDateTime, forKey: .endDate)
        try container.encode(stepHistory, forKey: .stepHistory)
        if !asyncResults.isEmpty { try container.encode(asyncResults, forKey: .asyncResults) }
        try container.encode(path, forKey: .path)
    }
}
