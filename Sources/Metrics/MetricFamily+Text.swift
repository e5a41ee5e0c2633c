extension MetricFamily {
    /// The family in the text exposition format (version 0.0.4): `# HELP`, `# TYPE`, then one
    /// line per sample, each ending in a newline.
    public var text: String {
        var text = "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            text += name + sample.suffix
            if !sample.labels.isEmpty {
                text += "{" + sample.labels.map { "\($0.name)=\"\(Self.escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
            }
            text += " " + Self.format(sample.value) + "\n"
        }
        return text
    }

    /// A help text with `\` and line feeds escaped, as the format requires.
    static func escapeHelp(_ help: String) -> String {
        escape(help, quotes: false)
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format requires.
    static func escapeLabelValue(_ value: String) -> String {
        escape(value, quotes: true)
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A value as the format writes it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
