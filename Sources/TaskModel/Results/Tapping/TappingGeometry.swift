/// A size and a rectangle as MotorControl writes them (`"{w, h}"`, `"{{x, y}, {w, h}}"`):
/// numbers in points, origin top left. Decoding strips the braces and splits on commas.
public enum TappingGeometry {
    /// `"{320.0, 640.0}"`.
    public static func text(_ numbers: [Double]) -> String {
        switch numbers.count {
        case 4: "{{\(numbers[0]), \(numbers[1])}, {\(numbers[2]), \(numbers[3])}}"
        default: "{" + numbers.map { "\($0)" }.joined(separator: ", ") + "}"
        }
    }

    /// The numbers of a geometry string; nil when one is not a number or their count is not `count`.
    public static func numbers(_ text: String, count: Int) -> [Double]? {
        let parts = text.split(separator: ",").map { part in
            part.filter { $0 != "{" && $0 != "}" && $0 != " " }
        }
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == count, parts.count == count else { return nil }
        return numbers
    }
}
