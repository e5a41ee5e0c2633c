import Configuration

/// Reads settings through swift-configuration, collecting one problem per bad value instead of
/// stopping at the first, so the person sees everything to fix at once.
struct SettingsReader {
    let reader: ConfigReader
    private(set) var problems: [ConfigurationProblem] = []

    init(reader: ConfigReader) {
        self.reader = reader
    }

    mutating func report(_ keyPath: String, _ message: String) {
        problems.append(ConfigurationProblem(keyPath: keyPath, message: message))
    }

    /// The value at `keyPath`, or `fallback` (after recording a problem) when it cannot be
    /// read as the type or fails `check`, which returns the sentence saying what is allowed.
    mutating func value<Value>(
        _ keyPath: String, fallback: Value, expected: String,
        read: (ConfigReader, ConfigKey) throws -> Value,
        check: (Value) -> String? = { _ in nil }
    ) -> Value {
        let key = ConfigKey(keyPath.split(separator: ".").map(String.init))
        let value: Value
        do {
            value = try read(reader, key)
        } catch {
            report(keyPath, "The setting must be \(expected); the value given (in the file, \(ConfigurationSchema.environmentName(keyPath)) or \(ConfigurationSchema.optionName(keyPath))) is not.")
            return fallback
        }
        if let complaint = check(value) {
            report(keyPath, complaint)
            return fallback
        }
        return value
    }

    mutating func string(_ keyPath: String, fallback: String, expected: String = "a string", check: (String) -> String? = { _ in nil }) -> String {
        value(keyPath, fallback: fallback, expected: expected, read: { try $0.requiredString(forKey: $1) }, check: check)
    }

    mutating func int(_ keyPath: String, fallback: Int, expected: String, check: (Int) -> String? = { _ in nil }) -> Int {
        value(keyPath, fallback: fallback, expected: expected, read: { try $0.requiredInt(forKey: $1) }, check: check)
    }

    mutating func double(_ keyPath: String, fallback: Double, expected: String, check: (Double) -> String? = { _ in nil }) -> Double {
        value(keyPath, fallback: fallback, expected: expected, read: { try $0.requiredDouble(forKey: $1) }, check: check)
    }

    mutating func bool(_ keyPath: String, fallback: Bool) -> Bool {
        value(keyPath, fallback: fallback, expected: "true or false", read: { try $0.requiredBool(forKey: $1) })
    }
}
