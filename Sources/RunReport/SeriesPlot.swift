/// One plot: several series against time, steps shaded behind, as an inline SVG element.
struct SeriesPlot {
    var identifier: String
    var title: String
    var unit: String
    var series: [PlotSeries]
    var frame: PlotFrame
    /// Fixed value range (for example dBFS), else the data's padded range.
    var fixedRange: ClosedRange<Double>?
    /// Samples further apart than this (seconds) are not joined: the break shows a gap.
    var joinLimit: Double = 0.25

    static let height = 200.0
    static let top = 26.0
    static let bottom = 22.0

    func svg() -> String {
        let plotBottom = Self.height - Self.bottom
        var range = fixedRange ?? series.compactMap(\.values.valueRange).reduce(nil as ClosedRange<Double>?) { total, next in
            total.map { min($0.lowerBound, next.lowerBound)...max($0.upperBound, next.upperBound) } ?? next
        } ?? -1...1
        if range.upperBound - range.lowerBound < 1e-9 { range = (range.lowerBound - 1)...(range.upperBound + 1) }
        let padding = fixedRange == nil ? (range.upperBound - range.lowerBound) * 0.05 : 0
        range = (range.lowerBound - padding)...(range.upperBound + padding)
        func y(_ value: Double) -> Double {
            Self.top + (range.upperBound - value) / (range.upperBound - range.lowerBound) * (plotBottom - Self.top)
        }
        var svg = "<svg id=\"\(identifier)\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(PlotFrame.width)) \(Int(Self.height))\" role=\"img\" aria-label=\"\(SVGText.escape(title))\">"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(PlotFrame.width))\" height=\"\(Int(Self.height))\" fill=\"#fff\"/>"
        svg += frame.shading(top: Self.top, bottom: plotBottom)
        for tick in SVGText.ticks(range, count: 4) {
            let position = SVGText.coordinate(y(tick))
            svg += "<line x1=\"\(PlotFrame.left)\" y1=\"\(position)\" x2=\"\(PlotFrame.width - PlotFrame.right)\" y2=\"\(position)\" stroke=\"#ccc\" stroke-width=\"0.5\"/>"
            svg += "<text x=\"\(PlotFrame.left - 6)\" y=\"\(position)\" dy=\"4\" text-anchor=\"end\" class=\"tick\">\(SVGText.label(tick))</text>"
        }
        svg += "<text x=\"\(PlotFrame.left)\" y=\"16\" class=\"plot-title\">\(SVGText.escape(title))\(unit.isEmpty ? "" : " (\(SVGText.escape(unit)))")</text>"
        var legendX = PlotFrame.width - PlotFrame.right
        for item in series.reversed() {
            legendX -= 12 + Double(item.name.count) * 7
            svg += "<rect x=\"\(SVGText.coordinate(legendX))\" y=\"8\" width=\"9\" height=\"9\" fill=\"\(item.color)\"/><text x=\"\(SVGText.coordinate(legendX + 12))\" y=\"16\" class=\"tick\">\(SVGText.escape(item.name))</text>"
        }
        for item in series {
            svg += "<path fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.5\" stroke-opacity=\"0.8\" stroke-linejoin=\"round\" d=\"\(path(item.values, y: y))\"/>"
        }
        svg += frame.timeAxis(y: plotBottom)
        svg += "</svg>"
        return svg
    }

    /// The min/max envelope as one path: in each column a vertical stroke from the minimum to the
    /// maximum, joined to the next column; broken where the samples are further apart than `joinLimit`.
    private func path(_ values: MinMaxDecimator, y: (Double) -> Double) -> String {
        var d = ""
        d.reserveCapacity(values.columns * 20)
        var previous: Int?
        for (column, low, high) in values.filledColumns {
            let x = SVGText.coordinate(PlotFrame.left + Double(column) + 0.5)
            let joined = previous.map { values.firstTime[column] - values.lastTime[$0] <= joinLimit } ?? false
            d += joined ? "L" : "M"
            d += "\(x) \(SVGText.coordinate(y(low)))"
            if high != low { d += "L\(x) \(SVGText.coordinate(y(high)))" }
            previous = column
        }
        return d
    }
}
