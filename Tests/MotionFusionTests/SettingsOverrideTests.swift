import Foundation
import FusionBenchSupport
import MotionFusion
import Testing

/// `fusion-bench fuse --set KEY=VALUE` and `--settings FILE.json` (bench/fusion-cv's grid).
@Suite("Settings overrides")
struct SettingsOverrideTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var assignment: String
        var check: @Sendable (DeviceMotionEstimator.Settings) -> Bool
        var testDescription: String { assignment }
    }

    @Test("KEY=VALUE sets the field at that path", arguments: [
        Case(assignment: "filter.magneticTimeConstant=4.5") { $0.filter.magneticTimeConstant == 4.5 },
        Case(assignment: "filter.accelerationTimeConstant = 2") { $0.filter.accelerationTimeConstant == 2 },
        Case(assignment: "filter.magneticDisturbance.dipTolerance=0.35") {
            $0.filter.magneticDisturbance.dipTolerance == 0.35
        },
        Case(assignment: "filter.magneticDisturbance.usesFieldBeforeReference=true") {
            $0.filter.magneticDisturbance.usesFieldBeforeReference
        },
        Case(assignment: "hardIron.isEnabled=false") { !$0.hardIron.isEnabled },
        Case(assignment: "hardIron.solveInterval=20") { $0.hardIron.solveInterval == 20 },
        Case(assignment: "hardIron.minimumImprovement=2") { $0.hardIron.minimumImprovement == 2 },
        Case(assignment: "restartsHeadingOnCalibration=false") { !$0.restartsHeadingOnCalibration },
        Case(assignment: "gyroDelay=0.00175") { $0.gyroDelay == 0.00175 },
        Case(assignment: "filter.bias.estimatesInMotion=false") { !$0.filter.bias.estimatesInMotion },
    ])
    func sets(_ testCase: Case) throws {
        var settings = DeviceMotionEstimator.Settings()
        try SettingsOverride(parsing: testCase.assignment).apply(to: &settings)
        #expect(testCase.check(settings))
    }

    @Test("A refused override says why and what to write", arguments: [
        ("foo=1", "Unknown settings key 'foo'"),
        ("filter.magneticTimeConstant", "has no '='"),
        ("filter.magneticTimeConstant=fast", "needs a finite number"),
        ("filter.magneticTimeConstant=inf", "needs a finite number"),
        ("hardIron.solveInterval=2.5", "needs a whole number"),
        ("hardIron.isEnabled=1", "needs true or false"),
        ("filter.MagneticTimeConstant=9", "Unknown settings key"),
    ])
    func refuses(_ assignment: String, _ message: String) {
        #expect {
            _ = try SettingsOverride(parsing: assignment)
        } throws: { error in
            (error as? SettingsOverride.ParseError)?.description.contains(message) == true
        }
    }

    @Test("A JSON file of KEY: VALUE gives the same overrides as --set", arguments: [
        (#"{"filter.magneticTimeConstant": 18, "hardIron.isEnabled": false}"#,
         ["filter.magneticTimeConstant=18", "hardIron.isEnabled=false"]),
        (#"{"hardIron.solveInterval": 5}"#, ["hardIron.solveInterval=5"]),
        ("{}", []),
    ])
    func json(_ text: String, _ assignments: [String]) throws {
        let fromFile = try SettingsOverride.parse(json: Data(text.utf8))
        let fromArguments = try assignments.map { try SettingsOverride(parsing: $0) }
        #expect(fromFile == fromArguments)
    }

    @Test("A JSON file that is not one flat object of numbers and booleans is refused", arguments: [
        "[1, 2]", #"{"filter.magneticTimeConstant": "9"}"#, "not json", #"{"nope": 1}"#,
    ])
    func jsonRefused(_ text: String) {
        #expect(throws: SettingsOverride.ParseError.self) {
            _ = try SettingsOverride.parse(json: Data(text.utf8))
        }
    }

    @Test("Every listed key can be set")
    func everyKey() {
        let defaults = DeviceMotionEstimator.Settings()
        for key in SettingsOverride.keys {
            // A number for the number fields, the flag's opposite for the flags.
            let changed = ["7", "false", "true"].contains { value in
                var settings = defaults
                guard let override = try? SettingsOverride(parsing: "\(key)=\(value)"),
                    (try? override.apply(to: &settings)) != nil
                else { return false }
                return settings != defaults
            }
            #expect(changed, "\(key)")
        }
    }
}
