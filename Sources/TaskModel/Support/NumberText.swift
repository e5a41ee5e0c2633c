/// How numbers appear in messages and listings: `30` for a whole number, `2.5` otherwise (no
/// trailing `.0`), the one formatter every module uses for frequencies, durations and scales.
public enum NumberText {
    /// `value` as the shortest text that reads back to it, without `.0` when whole.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
