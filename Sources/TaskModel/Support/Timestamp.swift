public import Foundation

/// SageResearch's timestamp format: ISO 8601 with milliseconds and the UTC offset,
/// `2018-01-30T15:13:20.597-02:30` (`Z` for UTC).
public enum Timestamp {
    /// Formats `date` in `timeZone` (the device's by default).
    public static func string(from date: Date, timeZone: TimeZone = .current) -> String {
        date.formatted(style(timeZone: timeZone, fractionalSeconds: true))
    }

    /// Parses a timestamp with or without fractional seconds; nil when it is not ISO 8601.
    public static func date(from string: String) -> Date? {
        if let date = try? style(timeZone: .gmt, fractionalSeconds: true).parse(string) { return date }
        return try? style(timeZone: .gmt, fractionalSeconds: false).parse(string)
    }

    private static func style(timeZone: TimeZone, fractionalSeconds: Bool) -> Date.ISO8601FormatStyle {
        // SageResearch writes the offset with a colon (-02:30); the style omits it by default.
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, includingFractionalSeconds: fractionalSeconds, timeZone: timeZone)
    }

    /// A JSONEncoder date strategy writing SageResearch timestamps.
    public static let encodingStrategy: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(string(from: date))
    }

    /// A JSONDecoder date strategy reading SageResearch timestamps.
    public static let decodingStrategy: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = date(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected an ISO 8601 timestamp such as 2018-01-30T15:13:20.597-02:30, found \"\(text)\".")
        }
        return date
    }
}
