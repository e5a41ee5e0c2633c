public import Foundation

/// A file written by an async action, relative to the run directory.
///
/// Encodes as `{type: "file", identifier, startDate, endDate, relativePath, contentType,
/// startUptime}`; `notes` carries facts a reader of the data must know (a sampling gap, times
/// derived from the sampling rate) and is omitted when empty.
public struct FileResult: ResultData, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    /// The file's path relative to the run directory.
    public var relativePath: String
    /// The MIME type: `application/json`, `text/csv`, `audio/wav`.
    public var contentType: String?
    /// CLOCK_BOOTTIME seconds when the recording started.
    public var startUptime: Double?
    /// Facts about the recording a reader must know, such as overruns or derived timestamps.
    public var notes: [String]

    public var resultType: ResultType { .file }

    public init(
        identifier: String, startDate: Date, endDate: Date, relativePath: String,
        contentType: String?, startUptime: Double?, notes: [String] = []
    ) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.relativePath = relativePath
        self.contentType = contentType
        self.startUptime = startUptime
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, relativePath, contentType, startUptime, notes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        relativePath = try container.decode(String.self, forKey: .relativePath)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        startUptime = try container.decodeIfPresent(Double.self, forKey: .startUptime)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(relativePath, forKey: .relativePath)
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encodeIfPresent(startUptime, forKey: .startUptime)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    }
}
