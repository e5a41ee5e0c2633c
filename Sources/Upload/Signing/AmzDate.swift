public import Foundation

/// The UTC timestamps Signature V4 uses: `20150830T123600Z` and its day `20150830`.
public struct AmzDate: Sendable, Hashable {
    /// `yyyyMMdd'T'HHmmss'Z'`.
    public let timestamp: String
    /// `yyyyMMdd`.
    public var day: String { String(timestamp.prefix(8)) }

    public init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        timestamp = Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(day, 2) + "T"
            + Self.pad(inDay / 3600, 2) + Self.pad(inDay % 3600 / 60, 2) + Self.pad(inDay % 60, 2) + "Z"
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
    /// civil_from_days).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

extension AmzDate {
    /// `2026-11-25T21:30:00Z`.
    public static func iso8601(_ date: Date) -> String {
        let stamp = AmzDate(date).timestamp
        func slice(_ from: Int, _ to: Int) -> Substring {
            stamp[stamp.index(stamp.startIndex, offsetBy: from)..<stamp.index(stamp.startIndex, offsetBy: to)]
        }
        return "\(slice(0, 4))-\(slice(4, 6))-\(slice(6, 8))T\(slice(9, 11)):\(slice(11, 13)):\(slice(13, 15))Z"
    }
}
