import Foundation

/// The configuration file's structure, read once with Foundation's JSON parser: the names under
/// `permissions` and `typeAliases`, the `quality` object, and keys activetaskd does not know
/// (typos), which swift-configuration's key lookups cannot list.
struct ConfigurationFile {
    /// The top-level object; empty when there is no file.
    let object: [String: Any]

    /// Reads `path`; nil `path` or a missing optional file gives an empty object.
    init(path: String?, required: Bool) throws(ConfigurationError) {
        guard let path else { object = [:]; return }
        let source = path
        guard FileManager.default.fileExists(atPath: path) else {
            if required {
                throw ConfigurationError(source: source, problems: [ConfigurationProblem(
                    keyPath: "(file)", message: "The configuration file \(path) does not exist. Give an existing file with --config, or leave it out to use the defaults."
                )])
            }
            object = [:]
            return
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConfigurationError(source: source, problems: [ConfigurationProblem(
                keyPath: "(file)", message: "The configuration file \(path) is not valid JSON (\(error.localizedDescription)). Check it with `python3 -m json.tool \(path)`."
            )])
        }
        guard let object = parsed as? [String: Any] else {
            throw ConfigurationError(source: source, problems: [ConfigurationProblem(
                keyPath: "(file)", message: "The configuration file \(path) must hold one JSON object, like config/activetaskd.json."
            )])
        }
        self.object = object
    }

    /// The value at a dot-separated key path, if present.
    func value(at keyPath: String) -> Any? {
        var current: Any? = object
        for component in keyPath.split(separator: ".") {
            current = (current as? [String: Any])?[String(component)]
        }
        return current
    }

    /// The names under a map section (`permissions`, `typeAliases`).
    func names(in map: String) -> [String] {
        ((value(at: map) as? [String: Any])?.keys).map { $0.sorted() } ?? []
    }

    /// Keys that are not settings, objects where a value belongs, values where an object
    /// belongs, and nulls.
    func structureProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        for (key, value) in object {
            problems += check(keyPath: key, value: value)
        }
        return problems
    }

    private func check(keyPath: String, value: Any) -> [ConfigurationProblem] {
        if value is NSNull {
            return [ConfigurationProblem(keyPath: keyPath, message: "The setting is null. Remove it to use the default, or give a value (docs/configuration.md).")]
        }
        if ConfigurationSchema.leaves.contains(keyPath) {
            if value is [String: Any] || value is [Any] {
                return [ConfigurationProblem(keyPath: keyPath, message: "The setting must be a single value, not an object or a list (docs/configuration.md).")]
            }
            return []
        }
        if ConfigurationSchema.maps.contains(keyPath) || ConfigurationSchema.sections.contains(keyPath) {
            guard let object = value as? [String: Any] else {
                return [ConfigurationProblem(keyPath: keyPath, message: "The setting must be an object (see config/activetaskd.json).")]
            }
            if ConfigurationSchema.maps.contains(keyPath) {
                return object.compactMap { name, entry in
                    entry is String ? nil : ConfigurationProblem(keyPath: "\(keyPath).\(name)", message: "The entry must be a string.")
                }
            }
            return object.flatMap { check(keyPath: "\(keyPath).\($0.key)", value: $0.value) }
        }
        if ConfigurationSchema.passThrough.contains(keyPath) {
            return value is [String: Any] ? [] : [ConfigurationProblem(keyPath: keyPath, message: "The setting must be an object of quality thresholds (docs/configuration.md).")]
        }
        let parent = keyPath.split(separator: ".").dropLast().joined(separator: ".")
        let allowed = parent.isEmpty
            ? ConfigurationSchema.topLevelKeys
            : ConfigurationSchema.leaves.filter { $0.hasPrefix(parent + ".") }.map { String($0.dropFirst(parent.count + 1)) }
        return [ConfigurationProblem(
            keyPath: keyPath,
            message: "activetaskd has no such setting. The settings here are: \(allowed.joined(separator: ", ")) (docs/configuration.md)."
        )]
    }

    /// The `quality` object as JSON with sorted keys, or nil when absent.
    func qualityThresholds() -> Data? {
        guard let quality = value(at: "quality") as? [String: Any] else { return nil }
        return try? JSONSerialization.data(withJSONObject: quality, options: [.sortedKeys])
    }
}
