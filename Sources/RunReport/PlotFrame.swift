/// The shared geometry of the timeline and the plots: one pixel column per decimated column,
/// the same time axis (seconds since the run started) and the same step shading.
struct PlotFrame: Sendable {
    static let width = 1000.0
    static let left = 64.0
    static let right = 12.0
    /// Pixel columns in the plotting area.
    static var columns: Int { Int(width - left - right) }

    /// Seconds since the run started at the left and right edges.
    var start: Double
    var end: Double
    var steps: [ShadedStep]

    func x(_ seconds: Double) -> Double {
        Self.left + (seconds - start) / max(end - start, 1e-9) * (Self.width - Self.left - Self.right)
    }

    /// Alternating bands behind the steps, from `top` to `bottom`.
    func shading(top: Double, bottom: Double) -> String {
        var svg = ""
        for (index, step) in steps.enumerated() {
            let x0 = max(x(step.start), Self.left)
            let x1 = min(x(step.end), Self.width - Self.right)
            guard x1 > x0 else { continue }
            svg += "<rect class=\"step\" x=\"\(SVGText.coordinate(x0))\" y=\"\(SVGText.coordinate(top))\" width=\"\(SVGText.coordinate(x1 - x0))\" height=\"\(SVGText.coordinate(bottom - top))\" fill=\"\(index % 2 == 0 ? "#e3ecf7" : "#f3f6fa")\"><title>\(SVGText.escape(step.stepPath))</title></rect>"
        }
        return svg
    }

    /// The time axis with its labels under `y`.
    func timeAxis(y: Double) -> String {
        var svg = "<line x1=\"\(Self.left)\" y1=\"\(y)\" x2=\"\(Self.width - Self.right)\" y2=\"\(y)\" stroke=\"#888\"/>"
        for tick in SVGText.ticks(start...end, count: 10) {
            let position = SVGText.coordinate(x(tick))
            svg += "<line x1=\"\(position)\" y1=\"\(y)\" x2=\"\(position)\" y2=\"\(y + 4)\" stroke=\"#888\"/>"
            svg += "<text x=\"\(position)\" y=\"\(y + 15)\" text-anchor=\"middle\" class=\"tick\">\(SVGText.label(tick)) s</text>"
        }
        return svg
    }
}

/// A step drawn as a band: seconds since the run started.
struct ShadedStep: Sendable, Hashable {
    var stepPath: String
    var start: Double
    var end: Double
    /// The step's timer (seconds), when the task gives one.
    var timer: Double?
}
