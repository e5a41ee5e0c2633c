import Quality

/// The step timeline: steps as bands with their names, each step's timer, the step markers the
/// motion recorder wrote and the spoken prompts (late ones in red, a line back to their due
/// time), as an inline SVG element.
struct TimelinePlot {
    var frame: PlotFrame
    /// Marker times (seconds since the run started) and their step paths.
    var markers: [(seconds: Double, stepPath: String)]
    /// Prompts: due and heard (seconds since the run started), text, whether late.
    var prompts: [(scheduled: Double, spoken: Double?, text: String, late: Bool)]

    static let height = 170.0
    private static let rows: [(label: String, y: Double)] = [("steps", 18), ("timers", 62), ("markers", 92), ("prompts", 122)]

    func svg() -> String {
        let axisY = Self.height - 22
        var svg = "<svg id=\"timeline\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(PlotFrame.width)) \(Int(Self.height))\" role=\"img\" aria-label=\"Step timeline\">"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(PlotFrame.width))\" height=\"\(Int(Self.height))\" fill=\"#fff\"/>"
        svg += frame.shading(top: 10, bottom: axisY)
        for row in Self.rows {
            svg += "<text x=\"\(PlotFrame.left - 6)\" y=\"\(row.y + 14)\" text-anchor=\"end\" class=\"tick\">\(row.label)</text>"
        }
        // Step names, clipped to their band.
        for (index, step) in frame.steps.enumerated() {
            let x0 = max(frame.x(step.start), PlotFrame.left)
            let x1 = min(frame.x(step.end), PlotFrame.width - PlotFrame.right)
            guard x1 - x0 > 6 else { continue }
            let name = step.stepPath.split(separator: "/").last.map(String.init) ?? step.stepPath
            let fits = Int((x1 - x0 - 6) / 6.5)
            let shown = name.count <= fits ? name : fits >= 2 ? String(name.prefix(fits - 1)) + "…" : ""
            svg += "<rect x=\"\(SVGText.coordinate(x0))\" y=\"18\" width=\"\(SVGText.coordinate(x1 - x0))\" height=\"30\" fill=\"\(index % 2 == 0 ? "#5b6b7f" : "#8796a8")\" stroke=\"#fff\"><title>\(SVGText.escape(step.stepPath))</title></rect>"
            if !shown.isEmpty {
                svg += "<text x=\"\(SVGText.coordinate(x0 + 4))\" y=\"37\" class=\"step-label\">\(SVGText.escape(shown))</text>"
            }
            if let timer = step.timer {
                let end = min(frame.x(step.start + timer), PlotFrame.width - PlotFrame.right)
                svg += "<rect x=\"\(SVGText.coordinate(x0))\" y=\"66\" width=\"\(SVGText.coordinate(max(end - x0, 1)))\" height=\"12\" fill=\"#e0a030\"><title>\(SVGText.escape(step.stepPath)): timer \(SVGText.label(timer)) s</title></rect>"
            }
        }
        for marker in markers {
            let x = SVGText.coordinate(frame.x(marker.seconds))
            svg += "<line x1=\"\(x)\" y1=\"94\" x2=\"\(x)\" y2=\"112\" stroke=\"#333\" stroke-width=\"2\"><title>marker \(SVGText.escape(marker.stepPath)) at \(SVGText.label(marker.seconds)) s</title></line>"
        }
        for prompt in prompts {
            let due = frame.x(prompt.scheduled)
            let color = prompt.late ? "#c62828" : "#2e7d32"
            svg += "<line x1=\"\(SVGText.coordinate(due))\" y1=\"128\" x2=\"\(SVGText.coordinate(due))\" y2=\"140\" stroke=\"#999\"/>"
            if let spoken = prompt.spoken {
                let heard = frame.x(spoken)
                svg += "<line x1=\"\(SVGText.coordinate(due))\" y1=\"134\" x2=\"\(SVGText.coordinate(heard))\" y2=\"134\" stroke=\"\(color)\" stroke-width=\"2\"/>"
                svg += "<circle cx=\"\(SVGText.coordinate(heard))\" cy=\"134\" r=\"5\" fill=\"\(color)\"><title>\(SVGText.escape(prompt.text)): due \(SVGText.label(prompt.scheduled)) s, heard \(SVGText.label(spoken)) s</title></circle>"
            } else {
                svg += "<circle cx=\"\(SVGText.coordinate(due))\" cy=\"134\" r=\"5\" fill=\"none\" stroke=\"#c62828\"><title>\(SVGText.escape(prompt.text)): never spoken</title></circle>"
            }
        }
        svg += frame.timeAxis(y: axisY)
        svg += "</svg>"
        return svg
    }
}
