import Foundation

/// Small helpers for writing SVG by hand: escaping, compact numbers, tick positions.
enum SVGText {
    /// Text safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A coordinate with one decimal (enough at one unit per pixel), no trailing `.0`.
    static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return "\(whole)" }
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    /// About `count` round tick values (1, 2 or 5 × 10ⁿ apart) covering `range`.
    static func ticks(_ range: ClosedRange<Double>, count: Int) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let raw = span / Double(max(count, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var tick = (range.lowerBound / step).rounded(.up) * step
        var ticks: [Double] = []
        while tick <= range.upperBound + step * 1e-9 {
            ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
            tick += step
        }
        return ticks
    }

    /// A tick label: few digits.
    static func label(_ value: Double) -> String {
        String(format: "%g", (value * 1000).rounded() / 1000)
    }
}
