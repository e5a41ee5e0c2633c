/// One of SageResearch's navigation tests as data, replayed against the real daemon over its
/// socket by `SageNavigationScenarioTests`: a task, how the run starts, the steps that must
/// show in order with the answer sent on each, and how the run must end.
struct NavigationScenario: Sendable, CustomStringConvertible {
    /// One step shown and what the front end does on it.
    struct Move: Sendable {
        /// The step path the daemon must show.
        var shown: String
        /// The answer sent with `run.forward` (JSON text, named after the step); nil sends none.
        var answer: String? = nil
        /// The cohorts `stepShown` must name; nil checks nothing.
        var cohorts: [String]? = nil
        /// `forward` or `backward`; nil checks nothing.
        var direction: String? = nil
    }

    /// The Sage test this ports (`SurveyRuleTests`, `TaskControllerTests`, MotorControl's `NavigationTests`).
    var name: String
    var task: String
    var cohorts: [String]? = nil
    var fullInstructions: Bool? = nil
    var moves: [Move]
    /// `completed` or `earlyExit`.
    var finish: String
    /// The identifiers of taskResult.json's top-level `stepHistory`; nil checks nothing.
    var stepHistory: [String]? = nil
    /// A section's own `stepHistory` identifiers.
    var sectionHistory: (section: String, steps: [String])? = nil

    var description: String { name }
}
