import Foundation

/// Fills in the `%@` of a step's texts with the hand, as MotorControl's hand steps show and
/// speak them (docs/task-format.md, "Hands").
public enum HandText {
    /// The step keys whose text names the hand.
    public static let formattedKeys = ["title", "subtitle", "text", "detail"]

    /// `text` with every `%@` replaced by the hand's capitals (`LEFT`). Without a hand the
    /// placeholder is dropped with the space before it ("with your %@ hand" → "with your
    /// hand"), so it is never spoken or shown as symbols.
    public static func format(_ text: String, hand: Hand?) -> String {
        guard text.contains("%@") else { return text }
        if let hand { return text.replacingOccurrences(of: "%@", with: hand.displayName) }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "%@") {
            var before = rest[..<range.lowerBound]
            var after = rest[range.upperBound...]
            if before.last == " " {
                before = before.dropLast()
            } else if after.first == " " {
                after = after.dropFirst()
            }
            result += before
            rest = after
        }
        return result + rest
    }
}
