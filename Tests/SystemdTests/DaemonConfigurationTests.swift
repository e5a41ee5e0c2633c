import DaemonConfig
import Foundation
import MotionFusion
import Session
import TaskModel
import Testing
import TestSupport

@Suite("Daemon configuration")
struct DaemonConfigurationTests {
    /// Loads `json` (nil: an empty object) as the configuration file, with `environment` and `arguments`.
    static func load(_ json: String?, environment: [String: String] = [:], arguments: [String] = ["activetaskd"]) async throws -> DaemonConfiguration {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("activetaskd.json", json ?? "{}")
        return try await DaemonConfigurationLoader(filePath: path, environment: environment, arguments: arguments).load()
    }

    /// The problems a configuration is refused with.
    static func problems(_ json: String?, environment: [String: String] = [:], arguments: [String] = ["activetaskd"]) async throws -> [ConfigurationProblem] {
        do {
            _ = try await load(json, environment: environment, arguments: arguments)
            return []
        } catch let error as ConfigurationError {
            return error.problems
        }
    }

    @Test("No file, no variables, no options: the defaults of docs/configuration.md")
    func defaults() async throws {
        let configuration = try await DaemonConfigurationLoader(filePath: nil, environment: [:], arguments: ["activetaskd"]).load()
        #expect(configuration == DaemonConfiguration.defaults)
        #expect(configuration.socketPath == "/run/activetask/control.sock")
        #expect(configuration.dataDirectory == "/var/lib/activetask")
        #expect(configuration.iioURI == "local:")
        #expect(configuration.voice == VoiceSettings(name: "en", wordsPerMinute: 175, clipDirectory: nil))
        #expect(configuration.syncInterval == .seconds(1))
        #expect(configuration.realTimePriority == 10)
        #expect(configuration.motion == MotionSettings(gyroDelay: 0))
        #expect(configuration.policy(for: .microphone) == .ask)
    }

    @Test("voice.holdStream is on unless the file says false")
    func holdStream() async throws {
        #expect(try await !Self.load(#"{"voice": {"holdStream": false}}"#).voice.holdStream)
        #expect(try await Self.load(#"{"voice": {"rate": 160}}"#).voice.holdStream)
    }

    @Test("realTimePriority comes from the file, a variable or an option; 0 asks for none", arguments: [
        (#"{"realTimePriority": 20}"#, [String: String](), [String](), 20),
        (#"{"realTimePriority": 0}"#, [:], [], 0),
        (nil, ["ACTIVETASK_REAL_TIME_PRIORITY": "5"], [], 5),
        (nil, [:], ["--real-time-priority", "7"], 7),
    ])
    func realTimePriority(json: String?, environment: [String: String], arguments: [String], expected: Int) async throws {
        #expect(try await Self.load(json, environment: environment, arguments: ["activetaskd"] + arguments).realTimePriority == expected)
    }

    @Test("metricsDirectory comes from the file, a variable or an option; empty turns metrics off (docs/fleet.md)", arguments: [
        (nil, [String: String](), [String](), "/var/lib/prometheus/node-exporter"),
        (#"{"metricsDirectory": "/srv/textfile"}"#, [:], [], "/srv/textfile"),
        (#"{"metricsDirectory": ""}"#, [:], [], ""),
        (nil, ["ACTIVETASK_METRICS_DIRECTORY": "/run/metrics"], [], "/run/metrics"),
        (#"{"metricsDirectory": "/srv/textfile"}"#, [:], ["--metrics-directory", "/tmp/m"], "/tmp/m"),
    ])
    func metricsDirectory(json: String?, environment: [String: String], arguments: [String], expected: String) async throws {
        #expect(try await Self.load(json, environment: environment, arguments: ["activetaskd"] + arguments).metricsDirectory == expected)
    }

    @Test("A relative metricsDirectory is refused with its key and what to give")
    func relativeMetricsDirectory() async throws {
        let problems = try await Self.problems(#"{"metricsDirectory": "metrics"}"#)
        #expect(problems.map(\.keyPath) == ["metricsDirectory"])
        #expect(problems.first?.message.contains("absolute path") == true, "\(problems)")
    }

    @Test("The configuration accepts exactly the gyro delays the fusion compensates")
    func gyroDelayRangeMatchesFusion() {
        #expect(MotionSettings.gyroDelayRange == DeviceMotionEstimator.Settings.gyroDelayRange)
    }

    @Test("Permissions not listed are ask, as docs/configuration.md says; listed ones as configured")
    func permissionPolicy() async throws {
        let configuration = try await Self.load(#"{"permissions": {"motion": "granted", "custom": "denied"}}"#)
        let policy = configuration.permissionPolicy
        #expect(policy.decision(for: .motion) == .granted)
        #expect(policy.decision(for: PermissionType(rawValue: "custom")) == .denied)
        #expect(policy.decision(for: .microphone) == .ask)
        #expect(policy.decision(for: PermissionType(rawValue: "neverListed")) == .ask)
    }

    @Test("The sample config/activetaskd.json loads")
    func sample() async throws {
        let sample = PackagePaths.root.appendingPathComponent("config/activetaskd.json").path
        let configuration = try await DaemonConfigurationLoader(filePath: sample, environment: [:], arguments: ["activetaskd"]).load()
        #expect(configuration.policy(for: .motion) == .granted)
        #expect(configuration.policy(for: .camera) == .denied)
        #expect(configuration.policy(for: .microphone) == .ask)
        #expect(configuration.typeAliases.typeAliases == ["handInstruction": "instruction", "tapping": "active"])
        #expect(configuration.retention == RetentionPolicy(maxRuns: 100, maxAgeDays: 90, keepUncollectedArchives: true))
        #expect(configuration.qualityThresholds == Data("{}".utf8))
    }

    @Test("Options override variables, which override the file")
    func precedence() async throws {
        let json = #"{"socket": "/file/control.sock", "dataDir": "/file/data", "iioURI": "ip:board", "voice": {"rate": 150}, "permissions": {"motion": "denied"}}"#
        let configuration = try await Self.load(
            json,
            environment: ["ACTIVETASK_SOCKET": "/env/control.sock", "ACTIVETASK_DATA_DIR": "/env/data", "ACTIVETASK_VOICE_RATE": "200", "ACTIVETASK_PERMISSIONS_MOTION": "granted"],
            arguments: ["activetaskd", "--socket", "/cli/control.sock", "--iio-uri", "sim:", "--capture-device", "test_cap"]
        )
        #expect(configuration.socketPath == "/cli/control.sock")
        #expect(configuration.dataDirectory == "/env/data")
        #expect(configuration.iioURI == "sim:")
        #expect(configuration.captureDevice == "test_cap")
        #expect(configuration.voice.wordsPerMinute == 200)
        #expect(configuration.policy(for: .motion) == .granted)
    }

    @Test("motion.gyroDelay from the file, a variable or an option, in that order of precedence")
    func gyroDelay() async throws {
        let file = #"{"motion": {"gyroDelay": 0.00175}}"#
        #expect(try await Self.load(file).motion.gyroDelay == 0.00175)
        let variable = try await Self.load(file, environment: ["ACTIVETASK_MOTION_GYRO_DELAY": "0.002"])
        #expect(variable.motion.gyroDelay == 0.002)
        let option = try await Self.load(
            file, environment: ["ACTIVETASK_MOTION_GYRO_DELAY": "0.002"], arguments: ["activetaskd", "--motion-gyro-delay", "0"])
        #expect(option.motion.gyroDelay == 0)
    }

    @Test("The quality object is passed through as JSON")
    func qualityPassThrough() async throws {
        let configuration = try await Self.load(#"{"quality": {"motion": {"minimumRate": 0.9, "maxGapSeconds": 0.5}, "audio": {"maxClippedFraction": 0.01}}}"#)
        let data = try #require(configuration.qualityThresholds)
        #expect(String(decoding: data, as: UTF8.self) == #"{"audio":{"maxClippedFraction":0.01},"motion":{"maxGapSeconds":0.5,"minimumRate":0.9}}"#)
    }

    /// Each bad value, where it came from, the key path reported and words of the sentence.
    static let badValues: [(json: String?, environment: [String: String], arguments: [String], keyPath: String, says: String)] = [
        (#"{"socket": "control.sock"}"#, [:], [], "socket", "must be an absolute path"),
        (#"{"socket": "/\#(String(repeating: "s", count: 120))"}"#, [:], [], "socket", "at most 107 bytes"),
        (#"{"socket": 5}"#, [:], [], "socket", "must be a string"),
        (#"{"dataDir": "var/lib"}"#, [:], [], "dataDir", "data directory must be an absolute path"),
        (#"{"taskDirectory": "tasks"}"#, [:], [], "taskDirectory", "task directory must be an absolute path"),
        (#"{"iioURI": "i2c:0"}"#, [:], [], "iioURI", "use local:"),
        (#"{"captureDevice": "my mic"}"#, [:], [], "captureDevice", "ALSA capture device must be a PCM name"),
        (#"{"playbackDevice": ""}"#, [:], [], "playbackDevice", "ALSA playback device"),
        (#"{"voice": {"name": "en us"}}"#, [:], [], "voice.name", "espeak-ng voice name"),
        (#"{"voice": {"rate": 1000}}"#, [:], [], "voice.rate", "between 80 and 450 words per minute"),
        (#"{"voice": {"rate": "fast"}}"#, [:], [], "voice.rate", "must be a whole number of words per minute"),
        (nil, ["ACTIVETASK_VOICE_RATE": "fast"], [], "voice.rate", "ACTIVETASK_VOICE_RATE"),
        (nil, [:], ["--voice-rate", "10"], "voice.rate", "between 80 and 450"),
        (#"{"voice": {"clipDirectory": "clips"}}"#, [:], [], "voice.clipDirectory", "recorded clip directory must be an absolute path"),
        (#"{"voice": {"holdStream": "always"}}"#, [:], [], "voice.holdStream", "true or false"),
        (#"{"voice": "en"}"#, [:], [], "voice", "must be an object"),
        (#"{"voice": {"pitch": 50}}"#, [:], [], "voice.pitch", "The settings here are: name, rate, clipDirectory"),
        (#"{"permissions": {"microphone": "yes"}}"#, [:], [], "permissions.microphone", "must be granted, denied or ask"),
        (nil, ["ACTIVETASK_PERMISSIONS_CAMERA": "maybe"], [], "permissions.camera", "must be granted, denied or ask"),
        (#"{"permissions": {"motion": true}}"#, [:], [], "permissions.motion", "must be a string"),
        (#"{"typeAliases": {"tapping": "nonsense"}}"#, [:], [], "typeAliases.tapping", "nonsense"),
        (#"{"retention": {"maxRuns": -1}}"#, [:], [], "retention.maxRuns", "0 (keep all) or more"),
        (#"{"retention": {"maxRuns": 2.5}}"#, [:], [], "retention.maxRuns", "whole number of runs"),
        (#"{"retention": {"maxAgeDays": -3}}"#, [:], [], "retention.maxAgeDays", "0 (no limit) or more"),
        (#"{"retention": {"keepUncollectedArchives": "sometimes"}}"#, [:], [], "retention.keepUncollectedArchives", "true or false"),
        (#"{"motion": {"gyroDelay": 1.75}}"#, [:], [], "motion.gyroDelay", "between 0.0 and 0.05 seconds"),
        (#"{"motion": {"gyroDelay": -0.001}}"#, [:], [], "motion.gyroDelay", "lags its accelerometer"),
        (#"{"motion": {"gyroDelay": "2ms"}}"#, [:], [], "motion.gyroDelay", "must be a number of seconds"),
        (nil, ["ACTIVETASK_MOTION_GYRO_DELAY": "half"], [], "motion.gyroDelay", "ACTIVETASK_MOTION_GYRO_DELAY"),
        (nil, [:], ["--motion-gyro-delay", "0.5"], "motion.gyroDelay", "between 0.0 and 0.05 seconds"),
        (#"{"motion": {"delay": 0.001}}"#, [:], [], "motion.delay", "The settings here are: gyroDelay"),
        (#"{"syncInterval": 0}"#, [:], [], "syncInterval", "between 0.05 and 60.0 seconds"),
        (#"{"syncInterval": "1s"}"#, [:], [], "syncInterval", "a number of seconds"),
        (#"{"realTimePriority": 100}"#, [:], [], "realTimePriority", "between 0 (none) and 99"),
        (#"{"realTimePriority": -1}"#, [:], [], "realTimePriority", "between 0 (none) and 99"),
        (#"{"realTimePriority": 9.5}"#, [:], [], "realTimePriority", "a whole number priority"),
        (#"{"quality": [1, 2]}"#, [:], [], "quality", "must be an object"),
        (#"{"sockett": "/run/x.sock"}"#, [:], [], "sockett", "activetaskd has no such setting"),
        (#"{"dataDir": null}"#, [:], [], "dataDir", "is null"),
        (#"{"socket": }"#, [:], [], "(file)", "not valid JSON"),
        (#"[1, 2]"#, [:], [], "(file)", "must hold one JSON object"),
    ]

    @Test("Each bad value is refused with its key path and what is allowed", arguments: badValues)
    func badValue(_ example: (json: String?, environment: [String: String], arguments: [String], keyPath: String, says: String)) async throws {
        let problems = try await Self.problems(example.json, environment: example.environment, arguments: ["activetaskd"] + example.arguments)
        let problem = try #require(problems.first { $0.keyPath == example.keyPath }, "\(problems)")
        #expect(problem.message.contains(example.says), "\(problem)")
        #expect(problem.message.hasSuffix("."), "full sentences: \(problem.message)")
        #expect(problems.count == 1, "only the bad value is reported: \(problems)")
    }

    @Test("Every problem is reported at once, and the error names the file")
    func allProblemsAtOnce() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("bad.json", #"{"socket": "relative", "voice": {"rate": 5}, "syncInterval": 100}"#)
        do {
            _ = try await DaemonConfigurationLoader(filePath: path, environment: [:], arguments: ["activetaskd"]).load()
            Issue.record("a bad configuration was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["socket", "syncInterval", "voice.rate"])
            #expect(error.description.contains(path))
            #expect(error.description.contains("3 bad settings"))
        }
    }

    @Test("The error reads as docs/configuration.md shows it")
    func documentedError() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("activetaskd.json", #"{"voice": {"rate": 1000, "pitch": 50}}"#)
        do {
            _ = try await DaemonConfigurationLoader(filePath: path, environment: [:], arguments: ["activetaskd"]).load()
            Issue.record("a bad configuration was accepted")
        } catch {
            let documentation = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
            let shown = error.description.replacingOccurrences(of: path, with: "/etc/activetask/activetaskd.json")
            #expect(documentation.contains(shown.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")), "\(shown)")
        }
    }

    @Test("A named file that does not exist is an error; the default path may be absent")
    func missingFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let absent = scratch.url.appendingPathComponent("absent.json").path
        var problems: [ConfigurationProblem] = []
        do {
            _ = try await DaemonConfigurationLoader(filePath: absent, environment: [:], arguments: ["activetaskd"]).load()
        } catch {
            problems = error.problems
        }
        #expect(problems.map(\.keyPath) == ["(file)"])
        #expect(problems.first?.message.contains("does not exist") == true)
    }

    @Test("Reload says which changed settings apply now and which need a restart")
    func reload() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("activetaskd.json", #"{"socket": "/run/a.sock", "voice": {"rate": 150}, "permissions": {"microphone": "ask"}}"#)
        let loader = DaemonConfigurationLoader(filePath: path, environment: [:], arguments: ["activetaskd"])
        let current = try await loader.load()
        try scratch.write("activetaskd.json", #"{"socket": "/run/b.sock", "dataDir": "/srv/activetask", "voice": {"rate": 200}, "permissions": {"microphone": "granted"}, "typeAliases": {"tapping": "active"}}"#)
        let reload = try await loader.reload(replacing: current)
        #expect(reload.needsRestart == ["dataDir", "socket"])
        #expect(reload.appliedLive == ["permissions.microphone", "typeAliases.tapping", "voice.rate"])
        #expect(reload.configuration.socketPath == "/run/a.sock", "the bound socket stays until a restart")
        #expect(reload.configuration.voice.wordsPerMinute == 200)
        #expect(reload.summary.contains("take effect only after a restart"))

        let unchanged = try await loader.reload(replacing: reload.configuration)
        #expect(unchanged.appliedLive.isEmpty)
        #expect(unchanged.needsRestart == ["dataDir", "socket"])
    }

    @Test("A changed gyro delay applies from the next run, as the other device settings")
    func gyroDelayReload() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("activetaskd.json", "{}")
        let loader = DaemonConfigurationLoader(filePath: path, environment: [:], arguments: ["activetaskd"])
        let current = try await loader.load()
        try scratch.write("activetaskd.json", #"{"motion": {"gyroDelay": 0.00175}}"#)
        let reload = try await loader.reload(replacing: current)
        #expect(reload.appliedLive == ["motion.gyroDelay"] && reload.needsRestart.isEmpty)
        #expect(reload.configuration.motion.gyroDelay == 0.00175)
    }

    @Test("A bad reload is refused and the running configuration stays")
    func badReload() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("activetaskd.json", #"{"voice": {"rate": 150}}"#)
        let loader = DaemonConfigurationLoader(filePath: path, environment: [:], arguments: ["activetaskd"])
        let current = try await loader.load()
        try scratch.write("activetaskd.json", #"{"voice": {"rate": 5000}}"#)
        await #expect(throws: ConfigurationError.self) { try await loader.reload(replacing: current) }
    }
}
