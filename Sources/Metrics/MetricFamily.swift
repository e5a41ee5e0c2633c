/// One metric family of Prometheus's text exposition format: its name, help text, type and
/// samples (docs/fleet.md, "Metrics"). Names follow Prometheus's naming guide: base units,
/// `_total` on counters, `_seconds` and `_bytes` for units.
public struct MetricFamily: Sendable, Hashable {
    /// The `# TYPE` of a family.
    public enum Kind: String, Sendable, Hashable {
        case counter, gauge, histogram
    }

    /// One line of the family: a suffix of its name (`_bucket`, `_sum`, `_count` for a
    /// histogram, empty otherwise), its labels in order, and its value.
    public struct Sample: Sendable, Hashable {
        public var suffix: String
        public var labels: [Label]
        public var value: Double

        public init(suffix: String = "", labels: [Label] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    /// A label's name and value; values are escaped when written, names must be valid.
    public struct Label: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    /// A family; `name` and every label name must be valid Prometheus names (they are
    /// constants in the code, so a bad one is a programming error and stops at once).
    public init(name: String, help: String, kind: Kind, samples: [Sample]) {
        precondition(Self.isValidMetricName(name), "\(name) is not a valid Prometheus metric name.")
        for sample in samples {
            for label in sample.labels {
                precondition(Self.isValidLabelName(label.name), "\(label.name) is not a valid Prometheus label name.")
            }
        }
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    public static func isValidMetricName(_ name: String) -> Bool {
        isValid(name, extra: ":")
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__` (reserved for Prometheus).
    public static func isValidLabelName(_ name: String) -> Bool {
        isValid(name, extra: "") && !name.hasPrefix("__")
    }

    private static func isValid(_ name: String, extra: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func letter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || extra.unicodeScalars.contains(c) }
        return letter(first) && name.unicodeScalars.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }
}
