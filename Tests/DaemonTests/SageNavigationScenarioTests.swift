import Foundation
import Glibc
import Testing
import TestSupport

/// SageResearch's own survey-rule, cohort and abbreviated-instruction tests
/// (`Scenarios/SageNavigationScenarios.swift`) replayed against the real daemon over its socket:
/// each scenario loads its task, starts with its cohorts and instructions mode, answers as it
/// says, and checks every step shown, the cohorts, how the run ends and taskResult.json.
@Suite("activetaskd: SageResearch's navigation tests as scenarios", .serialized)
struct SageNavigationScenarioTests {
    static let groups: [(String, [NavigationScenario])] = [
        ("survey rules", SageNavigationScenarios.surveyScenarios),
        ("cohort tracking", SageNavigationScenarios.cohortScenarios),
        ("abbreviated instructions", SageNavigationScenarios.abbreviatedScenarios),
        ("survey rule jumps", SageNavigationScenarios.jumpScenarios),
    ]

    @Test(arguments: groups.indices)
    func scenarios(group: Int) async throws {
        let (name, scenarios) = Self.groups[group]
        let fixture = try await DaemonFixture("scenarios")
        let daemon = try await fixture.start()
        let socket = fixture.socket
        let failures = try await offThread { () throws -> [String] in
            let client = try LineClient(path: socket, timeout: 20)
            _ = try client.result("events.subscribe", ["kinds": ["stepShown", "taskFinished"]])
            var failures: [String] = []
            for scenario in scenarios {
                do { try Self.replay(scenario, on: client) } catch { failures.append("\(scenario.name): \(error)") }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(name):\n\(failures.joined(separator: "\n"))")
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: 20 * TestTiming.scale)
    }

    /// Runs one scenario to its end on `client`; throws at the first difference.
    static func replay(_ scenario: NavigationScenario, on client: LineClient) throws {
        _ = try client.result("task.load", ["task": try JSONSerialization.jsonObject(with: Data(scenario.task.utf8))])
        var start: [String: Any] = [:]
        if let cohorts = scenario.cohorts { start["cohorts"] = cohorts }
        if let full = scenario.fullInstructions { start["fullInstructions"] = full }
        var status = try client.result("run.start", start)
        for (index, move) in scenario.moves.enumerated() {
            let step = status["step"] as? [String: Any] ?? [:]
            guard step["stepPath"] as? String == move.shown else {
                throw DaemonTestFailure("move \(index): expected \(move.shown), the daemon shows \(step["stepPath"] ?? "nothing") (\(status["state"] ?? ""))")
            }
            let event = try client.waitForEvent("stepShown", within: 10) { $0["stepPath"] as? String == move.shown }
            if let cohorts = move.cohorts {
                guard event["cohorts"] as? [String] == cohorts, step["cohorts"] as? [String] == cohorts, status["cohorts"] as? [String] == cohorts else {
                    throw DaemonTestFailure("at \(move.shown): expected cohorts \(cohorts), stepShown has \(event["cohorts"] ?? "none"), run.status \(status["cohorts"] ?? "none")")
                }
            }
            if let direction = move.direction, event["direction"] as? String != direction {
                throw DaemonTestFailure("at \(move.shown): expected direction \(direction), got \(event["direction"] ?? "none")")
            }
            var params: [String: Any] = ["stepPath": move.shown]
            if let answer = move.answer {
                let identifier = String(move.shown.split(separator: "/").last ?? "")
                params["answers"] = [["identifier": identifier, "value": try JSONSerialization.jsonObject(with: Data(answer.utf8), options: .fragmentsAllowed)]]
            }
            status = try client.result("run.forward", params)
        }
        let finished = try client.waitForEvent("taskFinished", within: 15)
        guard finished["reason"] as? String == scenario.finish else {
            throw DaemonTestFailure("expected the run to end \(scenario.finish), it ended \(finished["reason"] ?? "?") (\(status["step"].map { "\($0)" } ?? ""))")
        }
        guard scenario.stepHistory != nil || scenario.sectionHistory != nil else { return }
        let directory = URL(fileURLWithPath: try #require(finished["runDirectory"] as? String))
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        let history = result["stepHistory"] as? [[String: Any]] ?? []
        if let expected = scenario.stepHistory, history.compactMap({ $0["identifier"] as? String }) != expected {
            throw DaemonTestFailure("stepHistory \(history.compactMap { $0["identifier"] as? String }), expected \(expected)")
        }
        if let (section, expected) = scenario.sectionHistory {
            let inner = history.last { $0["identifier"] as? String == section }?["stepHistory"] as? [[String: Any]] ?? []
            guard inner.compactMap({ $0["identifier"] as? String }) == expected else {
                throw DaemonTestFailure("\(section)'s stepHistory \(inner.compactMap { $0["identifier"] as? String }), expected \(expected)")
            }
        }
    }
}
