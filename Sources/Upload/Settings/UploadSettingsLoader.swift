public import Foundation

/// Reads `UploadSettings` from the JSON file, the environment and the command line, and checks
/// them: every problem is reported at once, each in a sentence saying what to fix.
public struct UploadSettingsLoader: Sendable {
    /// The settings could not be used.
    public struct Problems: Error, CustomStringConvertible, Sendable {
        public var problems: [String]
        public init(problems: [String]) { self.problems = problems }
        public var description: String {
            "The upload configuration has \(problems.count) problem\(problems.count == 1 ? "" : "s"); fix \(problems.count == 1 ? "it" : "them") and start again:\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    public static let defaultFile = "/etc/activetask/upload.json"

    /// The file named by `--config`; nil for the default file, used only when it exists.
    public var file: String?
    public var environment: [String: String]
    /// `--key value` or `--key=value` pairs (`--data-dir` included).
    public var arguments: [String]

    public init(file: String?, environment: [String: String], arguments: [String]) {
        self.file = file
        self.environment = environment
        self.arguments = arguments
    }

    public func load() throws(Problems) -> UploadSettings {
        var problems: [String] = []
        var values: [String: (value: String, source: String)] = [:]
        let path = file ?? Self.defaultFile
        if file != nil || FileManager.default.fileExists(atPath: path) {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard case .object(let dictionary) = try JSONDecoder().decode(SettingValue.self, from: data) else {
                    throw Problems(problems: ["\(path) is not a JSON object."])
                }
                flatten(dictionary, prefix: "", source: path, into: &values, problems: &problems)
            } catch let error as Problems {
                problems += error.problems
            } catch {
                problems.append("The configuration file \(path) cannot be read as JSON (\(error.localizedDescription)); fix it or name another with --config.")
            }
        }
        for key in UploadSettings.keys {
            if let value = environment[UploadSettings.environmentName(key)] {
                values[key] = (value, UploadSettings.environmentName(key))
            }
        }
        let options = Dictionary(UploadSettings.keys.map { (UploadSettings.optionName($0), $0) }, uniquingKeysWith: { a, _ in a })
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { problems.append("\"\(argument)\" is not an option; settings are given as --name value."); continue }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let key = options[name] else {
                problems.append("--\(name) is not a setting of activetask-upload (docs/upload.md lists them).")
                // Its value is not a second problem.
                if value == nil, index < arguments.count, !arguments[index].hasPrefix("--") { index += 1 }
                continue
            }
            if value == nil, index < arguments.count { value = arguments[index]; index += 1 }
            guard let value else { problems.append("--\(name) needs a value."); continue }
            values[key] = (value, "--\(name)")
        }

        var settings = UploadSettings()
        func text(_ key: String, _ apply: (String) -> Void) {
            if let entry = values[key] { apply(entry.value) }
        }
        func number<N: LosslessStringConvertible & Comparable>(_ key: String, _ type: N.Type, minimum: N, _ apply: (N) -> Void) {
            guard let entry = values[key] else { return }
            guard let number = N(entry.value), number >= minimum else {
                problems.append("\(key) (from \(entry.source)) is \"\(entry.value)\"; it must be a number of at least \(minimum).")
                return
            }
            apply(number)
        }
        text("dataDirectory") { settings.dataDirectory = $0 }
        text("target") { settings.target = $0 }
        text("study") { settings.study = $0 }
        text("device") { settings.device = $0 }
        text("s3.endpoint") { settings.s3Endpoint = $0 }
        text("s3.region") { settings.s3Region = $0 }
        text("s3.bucket") { settings.s3Bucket = $0 }
        if let entry = values["s3.pathStyle"] {
            switch entry.value.lowercased() {
            case "true", "1", "yes": settings.s3PathStyle = true
            case "false", "0", "no": settings.s3PathStyle = false
            default: problems.append("s3.pathStyle (from \(entry.source)) is \"\(entry.value)\"; use true or false.")
            }
        }
        text("s3.keyTemplate") { settings.s3KeyTemplate = $0 }
        text("s3.accessKeyID") { settings.s3AccessKeyID = $0 }
        text("s3.secretAccessKeyFile") { settings.s3SecretAccessKeyFile = $0 }
        text("caFile") { settings.caFile = $0 }
        number("multipartThreshold", Int64.self, minimum: 0) { settings.multipartThreshold = $0 }
        number("partSize", Int64.self, minimum: ArchiveUploader.minimumPartSize) { settings.partSize = $0 }
        number("parallel", Int.self, minimum: 1) { settings.parallel = $0 }
        number("partsInParallel", Int.self, minimum: 1) { settings.partsInParallel = $0 }
        number("maxBytesPerSecond", Int64.self, minimum: 1) { settings.maxBytesPerSecond = $0 }
        number("pollSeconds", Double.self, minimum: 0.1) { settings.pollSeconds = $0 }
        number("stallSeconds", Int.self, minimum: 1) { settings.stallSeconds = $0 }
        text("presigned.url") { settings.presignedURL = $0 }
        text("presigned.tokenFile") { settings.presignedTokenFile = $0 }
        text("encryption.certificate") { settings.encryptionCertificate = $0 }
        if let entry = values["metricsDirectory"] {
            if entry.value.isEmpty || entry.value.hasPrefix("/") {
                settings.metricsDirectory = entry.value
            } else {
                problems.append("metricsDirectory (from \(entry.source)) is \"\(entry.value)\"; give an absolute path, or an empty one for no metrics.")
            }
        }

        switch settings.target {
        case "s3":
            if settings.s3Endpoint.isEmpty { problems.append("s3.endpoint is not set; give the storage's URL (https://s3.eu-central-1.amazonaws.com, http://minio.local:9000).") }
            if settings.s3Bucket.isEmpty { problems.append("s3.bucket is not set; give the study's bucket.") }
            if settings.s3AccessKeyID.isEmpty { problems.append("s3.accessKeyID is not set; give the device's access key ID.") }
            if !settings.s3Endpoint.isEmpty, !settings.s3Bucket.isEmpty,
               S3Location(endpoint: settings.s3Endpoint, bucket: settings.s3Bucket, region: settings.s3Region, pathStyle: settings.s3PathStyle) == nil {
                problems.append("s3.endpoint \"\(settings.s3Endpoint)\" is not an http:// or https:// URL with a host.")
            }
        case "presigned":
            if let url = settings.presignedURL, !url.isEmpty {
                let components = URLComponents(string: url)
                if !["http", "https"].contains(components?.scheme?.lowercased() ?? "") || (components?.host ?? "").isEmpty {
                    problems.append("presigned.url \"\(url)\" is not an http:// or https:// URL with a host.")
                }
            } else {
                problems.append("presigned.url is not set; give the study server's upload URL (https://study.example.org/v1/uploads).")
            }
        default:
            problems.append("target is \"\(settings.target)\"; use \"s3\" or \"presigned\".")
        }
        if settings.encryptionCertificate?.isEmpty == true {
            problems.append("encryption.certificate is empty; name the study's certificate (PEM) or leave the setting out to upload unencrypted archives.")
        }
        do { _ = try ObjectKeyTemplate(settings.s3KeyTemplate) } catch { problems.append(error.description) }
        guard problems.isEmpty else { throw Problems(problems: problems) }
        return settings
    }

    private func flatten(_ dictionary: [String: SettingValue], prefix: String, source: String,
                         into values: inout [String: (value: String, source: String)], problems: inout [String]) {
        for (name, value) in dictionary {
            let key = prefix.isEmpty ? name : "\(prefix).\(name)"
            if case .object(let nested) = value {
                flatten(nested, prefix: key, source: source, into: &values, problems: &problems)
            } else if !UploadSettings.keys.contains(key) {
                problems.append("\(source) has the unknown setting \"\(key)\" (docs/upload.md lists the settings).")
            } else if case .scalar(let text) = value {
                values[key] = (text, source)
            }
        }
    }

    /// A JSON value of the settings file: scalars as text, objects nested.
    private enum SettingValue: Decodable {
        case scalar(String)
        case object([String: SettingValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .scalar(flag ? "true" : "false")
            } else if let number = try? container.decode(Double.self) {
                self = .scalar(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))
            } else if let text = try? container.decode(String.self) {
                self = .scalar(text)
            } else {
                self = .object(try container.decode([String: SettingValue].self))
            }
        }
    }

    /// The secret access key: `s3.secretAccessKeyFile`, else the systemd credential
    /// `$CREDENTIALS_DIRECTORY/s3-secret-access-key`. A trailing line break is dropped.
    public func secretAccessKey(for settings: UploadSettings) throws(Problems) -> String {
        try secret(file: settings.s3SecretAccessKeyFile, setting: "s3.secretAccessKeyFile", credential: "s3-secret-access-key", what: "secret access key")
    }

    /// The study server's bearer token: `presigned.tokenFile`, else the systemd credential
    /// `$CREDENTIALS_DIRECTORY/presigned-token`. A trailing line break is dropped.
    public func presignedToken(for settings: UploadSettings) throws(Problems) -> String {
        try secret(file: settings.presignedTokenFile, setting: "presigned.tokenFile", credential: "presigned-token", what: "study server token")
    }

    private func secret(file: String?, setting: String, credential: String, what: String) throws(Problems) -> String {
        let path: String
        if let file {
            path = file
        } else if let directory = environment["CREDENTIALS_DIRECTORY"] {
            path = "\(directory)/\(credential)"
        } else {
            throw Problems(problems: ["No \(what): set \(setting), or give the credential \(credential) with LoadCredential= in the unit (docs/upload.md)."])
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Problems(problems: ["The \(what) file \(path) cannot be read; check that it exists and is readable by activetask-upload."])
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else { throw Problems(problems: ["The \(what) file \(path) is empty."]) }
        return secret
    }
}
