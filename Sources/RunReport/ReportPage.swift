import Foundation
import Plot
import Quality

/// The report's HTML document, built with Plot; the SVG plots are inserted as raw nodes.
struct ReportPage {
    var data: ReportData

    func html() -> String {
        let contents = data.contents
        let title = "\(contents.taskIdentifier ?? "Run") report"
        let document = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .title(title),
                .style(Self.css)
            ),
            .body(
                .header(
                    .h1(.text(title)),
                    .p(.class("subtitle"), .text(subtitle))
                ),
                verdictSection(),
                .section(.id("timeline-section"), .h2("Step timeline"),
                         .p(.class("hint"), .text("Steps (shaded bands), their timers, the motion recorder's step markers and the spoken prompts: a line runs from when a prompt was due to when it was heard; red means late.")),
                         .raw(TimelinePlot(frame: data.frame, markers: data.markers, prompts: data.prompts).svg())),
                .section(.id("plots"), .h2("Recordings"),
                         .forEach(data.plots) { plot in .div(.class("figure"), .raw(plot.svg())) }),
                checksSection(),
                metadataSection()
            )
        )
        return document.render()
    }

    private var subtitle: String {
        let contents = data.contents
        var parts: [String] = []
        if let uuid = contents.taskRunUUID { parts.append("Run \(uuid)") }
        if let start = contents.startDate { parts.append("started \(start.formatted(.iso8601))") }
        if let start = contents.startDate, let end = contents.endDate {
            parts.append(String(format: "%.1f s", end.timeIntervalSince(start)))
        }
        return parts.isEmpty ? contents.directory.path : parts.joined(separator: " · ")
    }

    private func verdictSection() -> Node<HTML.BodyContext> {
        let report = data.quality
        let headline: String
        switch report.verdict {
        case .ok: headline = "The recording is usable: every check passed."
        case .warning: headline = "The recording is usable, with warnings to look at."
        case .failed: headline = "The recording has failed checks: it should be repeated."
        }
        // Failed checks first; a long list is cut, the table below has every check.
        let allProblems = report.checks(atLeast: .warning).enumerated().sorted {
            ($0.element.verdict, -$0.offset) > ($1.element.verdict, -$1.offset)
        }.map(\.element)
        let problems = Array(allProblems.prefix(Self.bannerLimit))
        let more = allProblems.count - problems.count
        return .section(
            .id("verdict"), .class("verdict \(report.verdict.rawValue)"),
            .h2(.text("Verdict: \(report.verdict.rawValue)")),
            .p(.text(headline)),
            .if(!problems.isEmpty, .ul(.forEach(problems) { check in
                .li(.span(.class("badge \(check.verdict.rawValue)"), .text(check.verdict.rawValue)), .text(" \(check.identifier) · \(check.check): \(check.message)"))
            })),
            .if(more > 0, .p(.class("hint"), .text("… and \(more) more in the quality checks below.")))
        )
    }

    private func checksSection() -> Node<HTML.BodyContext> {
        .section(
            .id("quality"), .h2("Quality checks"),
            .table(
                .thead(.tr(.th("Verdict"), .th("Recording"), .th("Check"), .th("Finding"), .th("Figures"))),
                .tbody(.forEach(data.quality.checks) { check in
                    .tr(.class(check.verdict.rawValue),
                        .td(.span(.class("badge \(check.verdict.rawValue)"), .text(check.verdict.rawValue))),
                        .td(.text(check.identifier)), .td(.text(check.check)), .td(.text(check.message)),
                        .td(.class("figures"), .text(Self.figures(check.figures))))
                })
            )
        )
    }

    private func metadataSection() -> Node<HTML.BodyContext> {
        let contents = data.contents
        return .section(
            .id("metadata"), .h2("Run metadata"),
            .table(.tbody(
                .tr(.th("Run directory"), .td(.text(contents.directory.path))),
                .forEach(contents.metadata) { item in .tr(.th(.text(item.key)), .td(.text(item.value))) }
            )),
            .h2("Files"),
            .table(
                .thead(.tr(.th("Identifier"), .th("File"), .th("Kind"), .th("Notes"))),
                .tbody(.forEach(contents.files) { file in
                    .tr(.td(.text(file.identifier)), .td(.text(file.relativePath)), .td(.text(file.kind.rawValue)),
                        .td(.text(file.notes.joined(separator: " "))))
                })
            )
        )
    }

    /// How many checks the verdict box lists before pointing to the table.
    static let bannerLimit = 6

    static func figures(_ figures: [String: QualityFigure]) -> String {
        figures.keys.sorted().map { key in
            switch figures[key]! {
            case .number(let value): "\(key) \(String(format: "%g", (value * 10000).rounded() / 10000))"
            case .text(let text): "\(key) \(text)"
            }
        }.joined(separator: ", ")
    }

    static let css = """
    body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1040px;padding:12px 20px;color:#222;background:#fafafa}
    h1{font-size:22px;margin:6px 0}h2{font-size:17px;margin:18px 0 6px}
    .subtitle,.hint{color:#555;font-size:13px;margin:2px 0 6px}
    .verdict{border-radius:6px;padding:6px 14px;border:2px solid}
    .verdict.ok{background:#e8f5e9;border-color:#2e7d32}.verdict.warning{background:#fff8e1;border-color:#f9a825}.verdict.failed{background:#ffebee;border-color:#c62828}
    .verdict h2{margin:6px 0 2px}.verdict ul{margin:4px 0 6px;padding-left:18px;font-size:13px}
    .badge{display:inline-block;min-width:56px;text-align:center;border-radius:4px;padding:1px 4px;font-size:12px;font-weight:600;color:#fff}
    .badge.ok{background:#2e7d32}.badge.warning{background:#e69500}.badge.failed{background:#c62828}
    svg.plot{display:block;width:100%;height:auto;border:1px solid #ddd;margin:6px 0;background:#fff}
    svg .tick{font-size:11px;fill:#555}svg .plot-title{font-size:13px;font-weight:600;fill:#222}svg .step-label{font-size:11px;fill:#fff}
    table{border-collapse:collapse;width:100%;font-size:13px;background:#fff}
    th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
    thead th{background:#eee}td.figures{font-family:ui-monospace,monospace;font-size:11px;color:#444}
    tr.failed td{background:#fff5f5}tr.warning td{background:#fffbea}
    """
}
