import Metrics
import Testing

/// Prometheus's text exposition format as `MetricsExposition` writes it (docs/fleet.md):
/// escaping, values, histograms and whole families, checked line for line.
@Suite("Metrics: the text exposition format")
struct MetricsExpositionTests {
    @Test("Label values and help texts are escaped as the format requires", arguments: [
        ("plain", "plain", "plain"),
        ("a\"quote", "a\\\"quote", "a\"quote"),
        ("back\\slash", "back\\\\slash", "back\\\\slash"),
        ("two\nlines", "two\\nlines", "two\\nlines"),
        ("ünïcödé ✓", "ünïcödé ✓", "ünïcödé ✓"),
        ("", "", ""),
    ])
    func escaping(raw: String, label: String, help: String) {
        let family = MetricFamily(name: "x", help: raw, kind: .gauge, samples: [.init(labels: [.init("l", raw)], value: 1)])
        #expect(family.text == "# HELP x \(help)\n# TYPE x gauge\nx{l=\"\(label)\"} 1\n")
    }

    @Test("Values: whole numbers without a fraction, fractions, infinities and NaN", arguments: [
        (0.0, "0"), (1.0, "1"), (-3.0, "-3"), (0.25, "0.25"), (1_234_567_890_123.0, "1234567890123"),
        (1e20, "1e+20"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (Double.nan, "NaN"), (1.5e-7, "1.5e-07"),
    ])
    func values(value: Double, text: String) {
        #expect(MetricFamily.format(value) == text)
    }

    @Test("Metric and label names are checked against the format's grammar", arguments: [
        ("activetask_runs_total", true, true), ("a:b", true, false), ("_x", true, true), ("__reserved", true, false),
        ("1abc", false, false), ("", false, false), ("with-dash", false, false), ("with space", false, false), ("é", false, false),
    ])
    func names(name: String, metric: Bool, label: Bool) {
        #expect(MetricFamily.isValidMetricName(name) == metric)
        #expect(MetricFamily.isValidLabelName(name) == label)
    }

    @Test("A histogram's buckets are cumulative, end in +Inf and carry the sum and count", arguments: [
        ([Double](), ["0.01": 0, "0.1": 0, "1": 0, "+Inf": 0], 0.0),
        ([0.005], ["0.01": 1, "0.1": 1, "1": 1, "+Inf": 1], 0.005),
        ([0.01, 0.05, 0.5, 2], ["0.01": 1, "0.1": 2, "1": 3, "+Inf": 4], 2.56),
        ([5, 6, Double.nan], ["0.01": 0, "0.1": 0, "1": 0, "+Inf": 2], 11.0),
    ])
    func histogram(observations: [Double], buckets: [String: Int], sum: Double) {
        var histogram = MetricHistogram(upperBounds: [1, 0.1, 0.01, 0.1, .infinity])
        for value in observations { histogram.observe(value) }
        let samples = histogram.samples(labels: [.init("task", "Tapping")])
        #expect(samples.map(\.suffix) == ["_bucket", "_bucket", "_bucket", "_bucket", "_sum", "_count"])
        for sample in samples where sample.suffix == "_bucket" {
            let bound = sample.labels.last { $0.name == "le" }?.value ?? "?"
            #expect(sample.labels.first == .init("task", "Tapping"))
            #expect(Int(sample.value) == buckets[bound], "le=\(bound)")
        }
        #expect(abs(samples[4].value - sum) < 1e-9)
        #expect(samples[5].value == Double(buckets["+Inf"] ?? -1))
    }

    @Test("A whole file: families in order, each with HELP and TYPE, labels in the order given")
    func wholeFile() {
        var exposition = MetricsExposition()
        exposition.buildInfo(program: "activetaskd", version: "0.2.0")
        exposition.counter("activetask_runs_total", "Runs that ended.", [
            ([.init("task", "Tapping"), .init("finish_reason", "completed")], 3),
            ([.init("task", "Tapping"), .init("finish_reason", "interrupted")], 1),
        ])
        exposition.counter("activetask_runs_recovered_total", "Recovered runs.", [])
        var histogram = MetricHistogram(upperBounds: [0.1])
        histogram.observe(0.05)
        exposition.histogram("activetask_prompt_lateness_seconds", "Lateness.", [([], histogram)])
        exposition.gauge("activetask_data_free_bytes", "Free bytes.", 1_073_741_824)
        #expect(exposition.text == """
            # HELP activetask_build_info The program's version; always 1.
            # TYPE activetask_build_info gauge
            activetask_build_info{program="activetaskd",version="0.2.0"} 1
            # HELP activetask_runs_total Runs that ended.
            # TYPE activetask_runs_total counter
            activetask_runs_total{task="Tapping",finish_reason="completed"} 3
            activetask_runs_total{task="Tapping",finish_reason="interrupted"} 1
            # HELP activetask_runs_recovered_total Recovered runs.
            # TYPE activetask_runs_recovered_total counter
            # HELP activetask_prompt_lateness_seconds Lateness.
            # TYPE activetask_prompt_lateness_seconds histogram
            activetask_prompt_lateness_seconds_bucket{le="0.1"} 1
            activetask_prompt_lateness_seconds_bucket{le="+Inf"} 1
            activetask_prompt_lateness_seconds_sum 0.05
            activetask_prompt_lateness_seconds_count 1
            # HELP activetask_data_free_bytes Free bytes.
            # TYPE activetask_data_free_bytes gauge
            activetask_data_free_bytes 1073741824

            """)
    }
}
