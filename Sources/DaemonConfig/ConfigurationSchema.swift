/// The keys the configuration file may hold, and which of them need a restart to change.
enum ConfigurationSchema {
    /// Settings with one value each, by key path.
    static let leaves: [String] = [
        "socket", "dataDir", "taskDirectory", "iioURI", "captureDevice", "playbackDevice",
        "voice.name", "voice.rate", "voice.clipDirectory", "voice.holdStream",
        "retention.maxRuns", "retention.maxAgeDays", "retention.keepUncollectedArchives",
        "motion.gyroDelay",
        "syncInterval", "realTimePriority", "metricsDirectory",
    ]
    /// Objects whose keys are names the person chooses (permission names, type names), each
    /// with a string value.
    static let maps: [String] = ["permissions", "typeAliases"]
    /// Objects passed through unread.
    static let passThrough: [String] = ["quality"]
    /// Objects grouping leaves.
    static let sections: [String] = ["voice", "retention", "motion"]

    /// Settings a running daemon cannot change: it has bound the socket and opened the data
    /// directory (SIGHUP says they need a restart).
    static let restartOnly: Set<String> = ["socket", "dataDir"]

    static var topLevelKeys: [String] {
        Array(Set(leaves.map { String($0.split(separator: ".")[0]) } + maps + passThrough)).sorted()
    }

    /// The environment variable that sets `keyPath` (`voice.rate` → `ACTIVETASK_VOICE_RATE`),
    /// as swift-configuration's EnvironmentVariablesProvider encodes keys.
    static func environmentName(_ keyPath: String) -> String {
        "ACTIVETASK_" + words(keyPath).joined(separator: "_").uppercased()
    }

    /// The option that sets `keyPath` (`voice.rate` → `--voice-rate`), as
    /// CommandLineArgumentsProvider encodes keys.
    static func optionName(_ keyPath: String) -> String {
        "--" + words(keyPath).joined(separator: "-").lowercased()
    }

    /// Key components split at dots and at lower-to-upper case boundaries.
    private static func words(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".").flatMap { component -> [String] in
            var words: [String] = []
            var current = ""
            var previous: Character?
            for character in component {
                if character.isUppercase, let previous, previous.isLowercase {
                    words.append(current)
                    current = ""
                }
                current.append(character)
                previous = character
            }
            words.append(current)
            return words
        }
    }
}
