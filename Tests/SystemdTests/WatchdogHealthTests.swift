@testable import Systemd
import Testing

@Suite("Watchdog bookkeeping")
struct WatchdogHealthTests {
    typealias Decision = WatchdogHealth.Decision

    static let cases: [(name: String, ticks: [[String]], decisions: [Decision])] = [
        ("healthy", [[], []], [.ping, .ping]),
        ("stuck once logged once", [["recorder"], ["recorder"], ["recorder"]],
         [.withhold(stuck: ["recorder"], changed: true), .withhold(stuck: ["recorder"], changed: false), .withhold(stuck: ["recorder"], changed: false)]),
        ("recovery", [["recorder"], []], [.withhold(stuck: ["recorder"], changed: true), .pingAfterRecovery(previouslyStuck: ["recorder"])]),
        ("a second thing sticks", [["recorder"], ["session", "recorder"]],
         [.withhold(stuck: ["recorder"], changed: true), .withhold(stuck: ["recorder", "session"], changed: true)]),
        ("duplicates and order do not matter", [["b", "a", "a"], ["a", "b"]],
         [.withhold(stuck: ["a", "b"], changed: true), .withhold(stuck: ["a", "b"], changed: false)]),
        ("after recovery all is well", [["x"], [], []], [.withhold(stuck: ["x"], changed: true), .pingAfterRecovery(previouslyStuck: ["x"]), .ping]),
    ]

    @Test("Decisions per tick", arguments: cases)
    func decisions(_ example: (name: String, ticks: [[String]], decisions: [Decision])) {
        var health = WatchdogHealth()
        #expect(example.ticks.map { health.evaluate(stuck: $0) } == example.decisions, "\(example.name)")
    }
}
