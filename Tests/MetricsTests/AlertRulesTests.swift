import Foundation
import Testing
import TestSupport

/// prometheus/activetask-alerts.yml (docs/fleet.md, "Alerts"): Prometheus's own tool checks the
/// rules and runs their unit tests, every alert is tested firing and silent, and every runbook
/// link lands on a section of docs/fleet.md.
@Suite(
    "Metrics: the alert rules",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "skipped: promtool is not installed (Debian's prometheus; scripts/setup.sh)")
)
struct AlertRulesTests {
    static let directory = PackagePaths.root.appendingPathComponent("prometheus")
    static let rules = directory.appendingPathComponent("activetask-alerts.yml")
    static let tests = directory.appendingPathComponent("activetask-alerts.test.yml")

    static func promtool(_ arguments: [String]) async throws -> CommandRunner.Output {
        try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/promtool"), arguments)
    }

    /// The values of `key: value` lines (quotes dropped) in `text`, in order.
    static func values(of key: String, in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "- ", with: "")
            guard trimmed.hasPrefix(key + ":") else { return nil }
            return trimmed.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    @Test("promtool check rules and promtool test rules pass")
    func promtoolPasses() async throws {
        let check = try await Self.promtool(["check", "rules", Self.rules.path])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let test = try await Self.promtool(["test", "rules", Self.tests.path])
        #expect(test.status == 0 && test.standardOutput.contains("SUCCESS"), "\(test.standardOutput)\(test.standardError)")
    }

    @Test("Every alert is tested firing and not firing")
    func everyAlertTested() throws {
        let alerts = Self.values(of: "alert", in: try String(contentsOf: Self.rules, encoding: .utf8))
        #expect(alerts.count == 8, "\(alerts)")
        let text = try String(contentsOf: Self.tests, encoding: .utf8)
        // Each `alertname:` case, with whether it expects alerts (`exp_alerts: []` is silence).
        var cases: [String: (firing: Int, silent: Int)] = [:]
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (index, line) in lines.enumerated() where line.hasPrefix("alertname:") {
            let name = String(line.dropFirst("alertname:".count)).trimmingCharacters(in: .whitespaces)
            let silent = lines[index + 1] == "exp_alerts: []"
            cases[name, default: (0, 0)].firing += silent ? 0 : 1
            cases[name, default: (0, 0)].silent += silent ? 1 : 0
        }
        for alert in alerts {
            let tested = cases[alert] ?? (0, 0)
            #expect(tested.firing > 0, "\(alert) is never tested firing")
            #expect(tested.silent > 0, "\(alert) is never tested silent")
        }
    }

    @Test("Every runbook link names a section of docs/fleet.md")
    func runbooks() throws {
        let links = Self.values(of: "runbook_url", in: try String(contentsOf: Self.rules, encoding: .utf8))
        #expect(links.count == 8)
        let doc = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/fleet.md"), encoding: .utf8)
        // GitHub's anchors: the heading in lower case, spaces as dashes, other punctuation dropped.
        let anchors = Set(doc.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
            String(heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }.replacingOccurrences(of: " ", with: "-"))
        })
        for link in links {
            #expect(link.hasPrefix("docs/fleet.md#"), "\(link)")
            let anchor = String(link.split(separator: "#").last ?? "")
            #expect(anchors.contains(anchor), "\(link): no such section in docs/fleet.md (\(anchors.sorted()))")
        }
    }
}
