/// The clock an IIO device stamps its `in_timestamp` channel with (`current_timestamp_clock`).
public enum TimestampClock: String, Sendable, Codable, CaseIterable {
    case realtime
    case monotonic
    case monotonicRaw = "monotonic_raw"
    case realtimeCoarse = "realtime_coarse"
    case monotonicCoarse = "monotonic_coarse"
    case boottime
    case tai

    /// Parses the attribute's text; nil for anything else.
    public init?(attribute text: String) {
        var value = Substring(text)
        while let last = value.last, last == "\n" || last == " " { value = value.dropLast() }
        self.init(rawValue: String(value))
    }
}
