import Configuration
public import Foundation
import Session
import SystemPackage
public import TaskModel

/// Reads `DaemonConfiguration` with swift-configuration: command-line options (`--voice-rate`)
/// override environment variables (`ACTIVETASK_VOICE_RATE`), which override the JSON file,
/// which overrides the defaults. Every bad value is refused with its key path and what is allowed.
public struct DaemonConfigurationLoader: Sendable {
    /// Where the configuration file is looked for when none is named.
    public static let defaultFilePath = "/etc/activetask/activetaskd.json"

    /// The file to read; nil reads `defaultFilePath` when it exists.
    public var filePath: String?
    /// The environment (its `ACTIVETASK_*` variables are read).
    public var environment: [String: String]
    /// The command line (its `--key value` options are read; others are ignored).
    public var arguments: [String]
    /// The types `typeAliases` may point at: the built-in ones and an embedder's
    /// (`ActiveTaskDaemon.run(arguments:registry:)`, docs/custom-tasks.md).
    public var registry: TypeRegistry

    /// A loader for the file at `filePath` (it must exist) or, when nil, the default file if present.
    public init(
        filePath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = CommandLine.arguments,
        registry: TypeRegistry = .standard
    ) {
        self.filePath = filePath
        self.environment = environment
        self.arguments = arguments
        self.registry = registry
    }

    /// Reads and validates the configuration.
    public func load() async throws(ConfigurationError) -> DaemonConfiguration {
        let path = filePath ?? Self.defaultFilePath
        let source = FileManager.default.fileExists(atPath: path) ? path : "no configuration file"
        let file = try ConfigurationFile(path: path, required: filePath != nil)
        var problems = file.structureProblems()

        var providers: [any ConfigProvider] = [
            CommandLineArgumentsProvider(arguments: arguments),
            EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "activetask"),
        ]
        if source != "no configuration file" {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
            } catch let error where problems.isEmpty {
                problems.append(ConfigurationProblem(keyPath: "(file)", message: "The configuration file \(path) could not be read: \(error). Use only strings, numbers, booleans and objects, as in config/activetaskd.json."))
            } catch {
                // The structure problems (a null, a list of objects) already say what to fix.
            }
        }
        providers.append(InMemoryProvider(name: "defaults", values: Self.defaultValues(file: file)))

        var settings = SettingsReader(reader: ConfigReader(providers: providers))
        let configuration = Self.read(&settings, file: file, registry: registry)
        // One problem per key: what the file's structure says comes first.
        for problem in settings.problems where !problems.contains(where: { $0.keyPath == problem.keyPath }) {
            problems.append(problem)
        }
        guard problems.isEmpty else {
            throw ConfigurationError(source: source, problems: problems.sorted { $0.keyPath < $1.keyPath })
        }
        return configuration
    }

    /// Reads the configuration again (SIGHUP) and says which changed settings apply now and
    /// which need a restart; those keep their current values until then.
    public func reload(replacing current: DaemonConfiguration) async throws(ConfigurationError) -> ConfigurationReload {
        ConfigurationReload(current: current, read: try await load())
    }

    // MARK: Reading

    private static func read(_ settings: inout SettingsReader, file: ConfigurationFile, registry base: TypeRegistry) -> DaemonConfiguration {
        let defaults = DaemonConfiguration.defaults
        var configuration = defaults
        configuration.socketPath = settings.string("socket", fallback: defaults.socketPath, check: SettingChecks.socketPath)
        configuration.dataDirectory = settings.string("dataDir", fallback: defaults.dataDirectory, check: SettingChecks.absolutePath("data directory"))
        configuration.taskDirectory = settings.string("taskDirectory", fallback: defaults.taskDirectory, check: SettingChecks.absolutePath("task directory"))
        configuration.iioURI = settings.string("iioURI", fallback: defaults.iioURI, check: SettingChecks.iioURI)
        configuration.captureDevice = settings.string("captureDevice", fallback: defaults.captureDevice, check: SettingChecks.alsaDevice("capture"))
        configuration.playbackDevice = settings.string("playbackDevice", fallback: defaults.playbackDevice, check: SettingChecks.alsaDevice("playback"))

        configuration.voice.name = settings.string("voice.name", fallback: defaults.voice.name, check: SettingChecks.voiceName)
        configuration.voice.wordsPerMinute = settings.int("voice.rate", fallback: defaults.voice.wordsPerMinute, expected: "a whole number of words per minute", check: SettingChecks.wordsPerMinute)
        let clips = settings.string("voice.clipDirectory", fallback: "", check: SettingChecks.clipDirectory)
        configuration.voice.clipDirectory = clips.isEmpty ? nil : clips
        configuration.voice.holdStream = settings.bool("voice.holdStream", fallback: defaults.voice.holdStream)

        configuration.retention.maxRuns = settings.int("retention.maxRuns", fallback: defaults.retention.maxRuns, expected: "a whole number of runs") {
            $0 >= 0 ? nil : "The number of runs kept must be 0 (keep all) or more; \($0) is not."
        }
        configuration.retention.maxAgeDays = settings.double("retention.maxAgeDays", fallback: defaults.retention.maxAgeDays, expected: "a number of days", check: SettingChecks.notNegative("age limit in days"))
        configuration.retention.keepUncollectedArchives = settings.bool("retention.keepUncollectedArchives", fallback: defaults.retention.keepUncollectedArchives)

        configuration.motion.gyroDelay = settings.double("motion.gyroDelay", fallback: defaults.motion.gyroDelay, expected: "a number of seconds", check: SettingChecks.gyroDelay)

        let seconds = settings.double("syncInterval", fallback: 1, expected: "a number of seconds", check: SettingChecks.syncInterval)
        configuration.syncInterval = .milliseconds(Int64((seconds * 1000).rounded()))
        configuration.metricsDirectory = settings.string("metricsDirectory", fallback: defaults.metricsDirectory) {
            $0.isEmpty || $0.hasPrefix("/") ? nil : "The metrics directory must be an absolute path (or empty for no metrics); \"\($0)\" is not."
        }
        configuration.realTimePriority = settings.int(
            "realTimePriority", fallback: defaults.realTimePriority, expected: "a whole number priority", check: SettingChecks.realTimePriority)

        for name in Set(DaemonConfiguration.knownPermissions + file.names(in: "permissions")).sorted() {
            let text = settings.string("permissions.\(name)", fallback: "ask", check: SettingChecks.permissionPolicy)
            configuration.permissions[name] = PermissionDecision(rawValue: text) ?? .ask
        }

        var aliases: [String: String] = [:]
        for alias in file.names(in: "typeAliases") {
            let target = settings.string("typeAliases.\(alias)", fallback: "")
            var registry = base
            do {
                try registry.apply(TypeAliasTable(typeAliases: [alias: target]))
                aliases[alias] = target
            } catch {
                settings.report("typeAliases.\(alias)", "\(error)")
            }
        }
        configuration.typeAliases = TypeAliasTable(typeAliases: aliases)
        configuration.qualityThresholds = file.qualityThresholds()
        return configuration
    }

    /// The defaults as the lowest provider, so every lookup finds a value and a lookup that
    /// throws always means a value of the wrong type.
    private static func defaultValues(file: ConfigurationFile) -> [AbsoluteConfigKey: ConfigValue] {
        let defaults = DaemonConfiguration.defaults
        var values: [AbsoluteConfigKey: ConfigValue] = [
            "socket": .init(.string(defaults.socketPath), isSecret: false),
            "dataDir": .init(.string(defaults.dataDirectory), isSecret: false),
            "taskDirectory": .init(.string(defaults.taskDirectory), isSecret: false),
            "iioURI": .init(.string(defaults.iioURI), isSecret: false),
            "captureDevice": .init(.string(defaults.captureDevice), isSecret: false),
            "playbackDevice": .init(.string(defaults.playbackDevice), isSecret: false),
            ["voice", "name"]: .init(.string(defaults.voice.name), isSecret: false),
            ["voice", "rate"]: .init(.int(defaults.voice.wordsPerMinute), isSecret: false),
            ["voice", "clipDirectory"]: .init(.string(""), isSecret: false),
            ["voice", "holdStream"]: .init(.bool(defaults.voice.holdStream), isSecret: false),
            ["retention", "maxRuns"]: .init(.int(defaults.retention.maxRuns), isSecret: false),
            ["retention", "maxAgeDays"]: .init(.double(defaults.retention.maxAgeDays), isSecret: false),
            ["retention", "keepUncollectedArchives"]: .init(.bool(defaults.retention.keepUncollectedArchives), isSecret: false),
            ["motion", "gyroDelay"]: .init(.double(defaults.motion.gyroDelay), isSecret: false),
            "syncInterval": .init(.double(1), isSecret: false),
            "realTimePriority": .init(.int(defaults.realTimePriority), isSecret: false),
            "metricsDirectory": .init(.string(defaults.metricsDirectory), isSecret: false),
        ]
        for name in Set(DaemonConfiguration.knownPermissions + file.names(in: "permissions")) {
            values[AbsoluteConfigKey(["permissions", name])] = .init(.string(PermissionDecision.ask.rawValue), isSecret: false)
        }
        for alias in file.names(in: "typeAliases") {
            values[AbsoluteConfigKey(["typeAliases", alias])] = .init(.string(""), isSecret: false)
        }
        return values
    }
}
