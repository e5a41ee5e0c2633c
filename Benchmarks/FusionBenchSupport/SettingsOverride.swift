public import Foundation
public import MotionFusion

/// Overrides of `DeviceMotionEstimator.Settings` fields by name, for scoring other settings
/// without rebuilding (`fusion-bench fuse … --set KEY=VALUE`, `--settings FILE.json`). A key is
/// the field's path below `DeviceMotionEstimator.Settings`, in the field's own unit (seconds,
/// radians, rad/s, µT; see the Settings structs), e.g. `filter.magneticTimeConstant=9` or
/// `filter.magneticDisturbance.dipTolerance=0.349`; `SettingsOverride.keys` lists them all.
public struct SettingsOverride: Sendable, Equatable {
    /// A key and its parsed value.
    public var key: String
    public var value: Value

    public enum Value: Sendable, Equatable {
        case number(Double)
        case integer(Int)
        case flag(Bool)
    }

    /// A field the override can set.
    enum Field {
        case number(WritableKeyPath<DeviceMotionEstimator.Settings, Double>)
        case integer(WritableKeyPath<DeviceMotionEstimator.Settings, Int>)
        case flag(WritableKeyPath<DeviceMotionEstimator.Settings, Bool>)
    }

    nonisolated(unsafe) static let fields: [String: Field] = [
        "gyroDelay": .number(\.gyroDelay),
        "reorderWindow": .number(\.reorderWindow),
        "maximumWait": .number(\.maximumWait),
        "maximumStep": .number(\.maximumStep),
        "magnetometerHold": .number(\.magnetometerHold),
        "restartsHeadingOnCalibration": .flag(\.restartsHeadingOnCalibration),
        "filter.accelerationTimeConstant": .number(\.filter.accelerationTimeConstant),
        "filter.magneticTimeConstant": .number(\.filter.magneticTimeConstant),
        "filter.restGyroThreshold": .number(\.filter.restGyroThreshold),
        "filter.restAccelerationThreshold": .number(\.filter.restAccelerationThreshold),
        "filter.restMinimumDuration": .number(\.filter.restMinimumDuration),
        "filter.restTimeConstant": .number(\.filter.restTimeConstant),
        "filter.rejectsMagneticDisturbance": .flag(\.filter.rejectsMagneticDisturbance),
        "filter.bias.initialSigma": .number(\.filter.bias.initialSigma),
        "filter.bias.forgettingTime": .number(\.filter.bias.forgettingTime),
        "filter.bias.limit": .number(\.filter.bias.limit),
        "filter.bias.motionSigma": .number(\.filter.bias.motionSigma),
        "filter.bias.verticalForgettingFactor": .number(\.filter.bias.verticalForgettingFactor),
        "filter.bias.restSigma": .number(\.filter.bias.restSigma),
        "filter.bias.estimatesInMotion": .flag(\.filter.bias.estimatesInMotion),
        "filter.magneticDisturbance.currentTimeConstant": .number(\.filter.magneticDisturbance.currentTimeConstant),
        "filter.magneticDisturbance.referenceTimeConstant": .number(\.filter.magneticDisturbance.referenceTimeConstant),
        "filter.magneticDisturbance.normTolerance": .number(\.filter.magneticDisturbance.normTolerance),
        "filter.magneticDisturbance.dipTolerance": .number(\.filter.magneticDisturbance.dipTolerance),
        "filter.magneticDisturbance.newFieldTime": .number(\.filter.magneticDisturbance.newFieldTime),
        "filter.magneticDisturbance.firstFieldTime": .number(\.filter.magneticDisturbance.firstFieldTime),
        "filter.magneticDisturbance.newFieldMinimumRotation": .number(\.filter.magneticDisturbance.newFieldMinimumRotation),
        "filter.magneticDisturbance.minimumUndisturbedTime": .number(\.filter.magneticDisturbance.minimumUndisturbedTime),
        "filter.magneticDisturbance.maximumRejectionTime": .number(\.filter.magneticDisturbance.maximumRejectionTime),
        "filter.magneticDisturbance.rejectionFactor": .number(\.filter.magneticDisturbance.rejectionFactor),
        "filter.magneticDisturbance.usesFieldBeforeReference": .flag(\.filter.magneticDisturbance.usesFieldBeforeReference),
        "filter.magneticDisturbance.firstFieldNeedsRotation": .flag(\.filter.magneticDisturbance.firstFieldNeedsRotation),
        "hardIron.memory": .number(\.hardIron.memory),
        "hardIron.solveInterval": .integer(\.hardIron.solveInterval),
        "hardIron.minimumSamples": .number(\.hardIron.minimumSamples),
        "hardIron.coverageForLow": .number(\.hardIron.coverageForLow),
        "hardIron.coverageForMedium": .number(\.hardIron.coverageForMedium),
        "hardIron.coverageForHigh": .number(\.hardIron.coverageForHigh),
        "hardIron.maximumRelativeResidual": .number(\.hardIron.maximumRelativeResidual),
        "hardIron.lowAccuracyConfirmation": .number(\.hardIron.lowAccuracyConfirmation),
        "hardIron.transitionTime": .number(\.hardIron.transitionTime),
        "hardIron.isEnabled": .flag(\.hardIron.isEnabled),
        "hardIron.minimumImprovement": .number(\.hardIron.minimumImprovement),
    ]

    /// Every key an override accepts, sorted.
    public static var keys: [String] { fields.keys.sorted() }

    /// Why an override was refused; the description says what to do.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }

    /// Parses `KEY=VALUE`; the value must suit the field (a finite number, an integer, or
    /// true/false).
    public init(parsing assignment: String) throws(ParseError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw ParseError(description: "--set \(assignment) has no '=': write KEY=VALUE, e.g. filter.magneticTimeConstant=9.")
        }
        let key = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
        let text = String(assignment[assignment.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        try self.init(key: key, text: text)
    }

    init(key: String, text: String) throws(ParseError) {
        guard let field = Self.fields[key] else {
            throw ParseError(description: "Unknown settings key '\(key)': use one of \(Self.keys.joined(separator: ", ")).")
        }
        switch field {
        case .number:
            guard let number = Double(text), number.isFinite else {
                throw ParseError(description: "\(key) needs a finite number, not '\(text)'.")
            }
            self.init(key: key, value: .number(number))
        case .integer:
            guard let integer = Int(text) else {
                throw ParseError(description: "\(key) needs a whole number, not '\(text)'.")
            }
            self.init(key: key, value: .integer(integer))
        case .flag:
            guard let flag = Bool(text) else {
                throw ParseError(description: "\(key) needs true or false, not '\(text)'.")
            }
            self.init(key: key, value: .flag(flag))
        }
    }

    /// The overrides in a JSON file holding one flat object, `{"KEY": VALUE, …}`, with numbers
    /// and booleans as values.
    public static func parse(json data: Data, file: String = "the settings file") throws(ParseError) -> [SettingsOverride] {
        let values: [String: JSONValue]
        do {
            values = try JSONDecoder().decode([String: JSONValue].self, from: data)
        } catch {
            throw ParseError(description: "\(file) must hold one JSON object of KEY: number or true/false, e.g. {\"filter.magneticTimeConstant\": 9}.")
        }
        var overrides: [SettingsOverride] = []
        for key in values.keys.sorted() {
            let text: String
            switch values[key] {
            case let .flag(flag)?: text = flag ? "true" : "false"
            case let .number(number)?:
                text = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case nil: continue
            }
            overrides.append(try SettingsOverride(key: key, text: text))
        }
        return overrides
    }

    /// A JSON value of the settings file: true/false or a number.
    enum JSONValue: Decodable {
        case flag(Bool)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else {
                self = .number(try container.decode(Double.self))
            }
        }
    }

    /// Sets the field in `settings`.
    public func apply(to settings: inout DeviceMotionEstimator.Settings) throws(ParseError) {
        switch (Self.fields[key], value) {
        case let (.number(path)?, .number(number)): settings[keyPath: path] = number
        case let (.integer(path)?, .integer(integer)): settings[keyPath: path] = integer
        case let (.flag(path)?, .flag(flag)): settings[keyPath: path] = flag
        case (nil, _):
            throw ParseError(description: "Unknown settings key '\(key)': use one of \(Self.keys.joined(separator: ", ")).")
        default:
            throw ParseError(description: "\(key) was given a value of the wrong kind: write it as the field's type.")
        }
    }
}
