/// A whole metrics file: families in the order added, rendered in Prometheus's text
/// exposition format for node_exporter's textfile collector (docs/fleet.md).
public struct MetricsExposition: Sendable, Hashable {
    public private(set) var families: [MetricFamily] = []

    public init() {}

    /// Adds a counter (its name ends in `_total`) with one sample per label set.
    public mutating func counter(_ name: String, _ help: String, _ values: [([MetricFamily.Label], Double)]) {
        precondition(name.hasSuffix("_total"), "The counter \(name) must end in _total.")
        add(name, help, .counter, values)
    }

    /// Adds a gauge with one sample per label set.
    public mutating func gauge(_ name: String, _ help: String, _ values: [([MetricFamily.Label], Double)]) {
        add(name, help, .gauge, values)
    }

    /// Adds a gauge with a single unlabelled value.
    public mutating func gauge(_ name: String, _ help: String, _ value: Double) {
        add(name, help, .gauge, [([], value)])
    }

    /// Adds a histogram with one set of buckets per label set.
    public mutating func histogram(_ name: String, _ help: String, _ histograms: [([MetricFamily.Label], MetricHistogram)]) {
        families.append(MetricFamily(name: name, help: help, kind: .histogram, samples: histograms.flatMap { $0.1.samples(labels: $0.0) }))
    }

    /// Adds `activetask_build_info{program,version} 1`, with the one help text both programs
    /// use (node_exporter merges the family from both files).
    public mutating func buildInfo(program: String, version: String) {
        add("activetask_build_info", "The program's version; always 1.", .gauge, [([.init("program", program), .init("version", version)], 1)])
    }

    private mutating func add(_ name: String, _ help: String, _ kind: MetricFamily.Kind, _ values: [([MetricFamily.Label], Double)]) {
        families.append(MetricFamily(name: name, help: help, kind: kind, samples: values.map { .init(labels: $0.0, value: $0.1) }))
    }

    /// The file's text.
    public var text: String {
        families.map(\.text).joined()
    }
}
