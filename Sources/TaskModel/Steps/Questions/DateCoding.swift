public import Foundation

/// The date formats of SageResearch's date input items and of JsonModel's date decoding
/// (docs/task-format.md, "Input items"), always in the `en_US_POSIX` locale.
public enum DateCoding {
    public static let timestampFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ"
    public static let dateFormat = "yyyy-MM-dd"
    public static let timeFormat = "HH:mm:ss.SSS"
    /// What JsonModel tries, in order, when it reads a date from text.
    public static let decodingFormats = [timestampFormat, dateFormat, timeFormat, "HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSZ"]

    /// `text` read with `format`; nil when it does not fit.
    public static func date(from text: String, format: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = format
        return formatter.date(from: text)
    }

    /// `text` read with the first of JsonModel's formats that fits.
    public static func date(from text: String) -> Date? {
        for format in decodingFormats {
            if let date = date(from: text, format: format) { return date }
        }
        return nil
    }
}
