public import Foundation

/// A file a recorder wrote, as its file result describes it (or, without results, as found in
/// the run directory).
public struct RecordedFile: Sendable, Hashable {
    /// What the file holds, from its content type and name.
    public enum Kind: String, Sendable, Hashable {
        /// A JSON array or CSV file, read as a motion file (markers and samples); one holding
        /// neither is another recorder's and gets no checks.
        case motion
        /// A WAV file.
        case audio
        /// A `<identifier>_levels` JSON file.
        case audioLevels
    }

    public var identifier: String
    public var relativePath: String
    public var kind: Kind
    public var startDate: Date?
    public var endDate: Date?
    /// CLOCK_BOOTTIME seconds when recording started.
    public var startUptime: Double?
    public var notes: [String]

    public init(identifier: String, relativePath: String, kind: Kind, startDate: Date? = nil, endDate: Date? = nil,
                startUptime: Double? = nil, notes: [String] = []) {
        self.identifier = identifier
        self.relativePath = relativePath
        self.kind = kind
        self.startDate = startDate
        self.endDate = endDate
        self.startUptime = startUptime
        self.notes = notes
    }

    /// The recorder's identifier: the file identifier without `_levels` for a levels file.
    public var recorderIdentifier: String {
        kind == .audioLevels && identifier.hasSuffix("_levels") ? String(identifier.dropLast("_levels".count)) : identifier
    }

    /// Seconds between the file result's start and end dates, when both are known.
    public var wallDuration: Double? {
        guard let startDate, let endDate else { return nil }
        return endDate.timeIntervalSince(startDate)
    }

    /// The kind of a file from its content type, its result identifier and its name; nil for
    /// files no check reads. A levels file is known by its identifier (`<identifier>_levels`):
    /// its name may have lost `_levels` to MobilePassiveData's 24-character cut
    /// (`heart_rate_microphoneRec.json`, docs/async-actions.md).
    static func kind(contentType: String?, relativePath: String, identifier: String? = nil) -> Kind? {
        let name = (relativePath as NSString).lastPathComponent.lowercased()
        if contentType == "audio/wav" || name.hasSuffix(".wav") { return .audio }
        if identifier?.hasSuffix("_levels") == true || name.hasSuffix("_levels.json") { return .audioLevels }
        if contentType == "text/csv" || name.hasSuffix(".csv") { return .motion }
        if contentType == "application/json" || name.hasSuffix(".json") { return .motion }
        return nil
    }
}
