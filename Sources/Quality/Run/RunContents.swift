public import Foundation
import TaskModel

/// What a run directory holds (docs/quality.md): the task result's steps, file results and
/// error results, the metadata, the spoken prompts and, when a copy of the task is there, the
/// motion frequencies and step durations it asked for. Read leniently: a missing or partial
/// file leaves its part empty, so an interrupted run can still be judged.
public struct RunContents: Sendable {
    public var directory: URL
    public var taskIdentifier: String?
    public var taskRunUUID: String?
    public var startDate: Date?
    public var endDate: Date?
    /// Steps in the order shown, sections flattened into step paths.
    public var steps: [StepSpan] = []
    public var files: [RecordedFile] = []
    public var failures: [ControllerFailure] = []
    public var prompts: [PromptRecord] = []
    /// `metadata.json`'s top-level values as text, keys sorted (files listed separately).
    public var metadata: [(key: String, value: String)] = []
    /// Motion recorder identifier → requested frequency (Hz) from `task.json`.
    public var requestedFrequencies: [String: Double] = [:]
    /// CLOCK_BOOTTIME seconds minus Unix seconds, from a file result with both a start date and
    /// a start uptime; nil when no file result has both.
    public var uptimeOffset: Double?

    /// File names of the run directory that checks read.
    public static let taskResultName = "taskResult.json"
    public static let metadataName = "metadata.json"
    public static let taskCopyName = "task.json"

    /// Reads the run directory at `directory`.
    public static func load(_ directory: URL) throws -> RunContents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw QualityError(path: directory.path, reason: "This is not a run directory; give the directory that holds taskResult.json and the recorder files.")
        }
        var contents = RunContents(directory: directory)
        if let task = try json(directory.appendingPathComponent(taskResultName)) as? [String: Any] {
            contents.taskIdentifier = task["identifier"] as? String
            contents.taskRunUUID = task["taskRunUUID"] as? String
            contents.startDate = date(task["startDate"])
            contents.endDate = date(task["endDate"])
            contents.collect(task, sectionPath: [])
        } else {
            contents.files = discoveredFiles(in: directory)
        }
        if let metadata = try json(directory.appendingPathComponent(metadataName)) as? [String: Any] {
            contents.metadata = metadata.keys.sorted().compactMap { key in
                guard key != "files", let value = metadata[key] else { return nil }
                return (key, text(value))
            }
        }
        if let data = try? Data(contentsOf: directory.appendingPathComponent(PromptRecord.fileName)) {
            do {
                contents.prompts = try JSONDecoder().decode([PromptRecord].self, from: data)
            } catch {
                throw QualityError(path: directory.appendingPathComponent(PromptRecord.fileName).path,
                                   reason: "The prompt log is not an array of {stepPath, text, scheduledUptime, spokenUptime}: \(error).")
            }
        }
        if let task = try json(directory.appendingPathComponent(taskCopyName)) {
            var durations: [String: Double] = [:]
            collectTaskCopy(task, frequencies: &contents.requestedFrequencies, durations: &durations)
            for index in contents.steps.indices {
                contents.steps[index].duration = durations[contents.steps[index].identifier]
            }
        }
        contents.uptimeOffset = contents.files.lazy.compactMap { file in
            file.startUptime.flatMap { uptime in file.startDate.map { uptime - $0.timeIntervalSince1970 } }
        }.first
        return contents
    }

    /// The CLOCK_BOOTTIME uptime of a wall-clock date, when the run gives the offset.
    public func uptime(of date: Date) -> Double? {
        uptimeOffset.map { date.timeIntervalSince1970 + $0 }
    }

    /// The URL of a file of the run.
    public func url(of file: RecordedFile) -> URL {
        directory.appendingPathComponent(file.relativePath)
    }

    private mutating func collect(_ result: [String: Any], sectionPath: [String]) {
        for step in result["stepHistory"] as? [[String: Any]] ?? [] {
            guard let identifier = step["identifier"] as? String else { continue }
            let path = sectionPath + [identifier]
            if step["type"] as? String == "section" {
                // The section's own async results are collected by this call, once.
                collect(step, sectionPath: path)
                continue
            }
            if let start = Self.date(step["startDate"]) {
                steps.append(StepSpan(stepPath: path.joined(separator: "/"), identifier: identifier,
                                      startDate: start, endDate: Self.date(step["endDate"])))
            }
            collectAsync(step["asyncResults"])
        }
        collectAsync(result["asyncResults"])
    }

    private mutating func collectAsync(_ value: Any?) {
        for result in value as? [[String: Any]] ?? [] {
            switch result["type"] as? String {
            case "file":
                guard let identifier = result["identifier"] as? String, let path = result["relativePath"] as? String,
                    let kind = RecordedFile.kind(contentType: result["contentType"] as? String, relativePath: path, identifier: identifier)
                else { continue }
                files.append(RecordedFile(
                    identifier: identifier, relativePath: path, kind: kind,
                    startDate: Self.date(result["startDate"]), endDate: Self.date(result["endDate"]),
                    startUptime: result["startUptime"] as? Double, notes: result["notes"] as? [String] ?? []))
            case "error":
                failures.append(ControllerFailure(
                    identifier: result["identifier"] as? String ?? "unknown",
                    errorDescription: result["errorDescription"] as? String ?? "no description",
                    errorDomain: result["errorDomain"] as? String, errorCode: result["errorCode"] as? Int))
            case "collection":
                collectAsync(result["children"])
            case "section", "task":
                collect(result, sectionPath: [])
            default:
                continue
            }
        }
    }

    /// Without a task result (a run cut before results were written): the recorder files found.
    private static func discoveredFiles(in directory: URL) -> [RecordedFile] {
        let ignored: Set<String> = [taskResultName, metadataName, taskCopyName, "answers.json", PromptRecord.fileName, QualityReport.fileName, "manifest.json"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            guard !ignored.contains(name), let kind = RecordedFile.kind(contentType: nil, relativePath: name) else { return nil }
            return RecordedFile(identifier: (name as NSString).deletingPathExtension, relativePath: name, kind: kind)
        }
    }

    private static func collectTaskCopy(_ value: Any, frequencies: inout [String: Double], durations: inout [String: Double]) {
        if let object = value as? [String: Any] {
            if object["type"] as? String == "motion", let identifier = object["identifier"] as? String {
                frequencies[identifier] = (object["frequency"] as? Double) ?? 100
            } else if let identifier = object["identifier"] as? String, let duration = object["duration"] as? Double, duration > 0 {
                durations[identifier] = duration
            }
            for child in object.values { collectTaskCopy(child, frequencies: &frequencies, durations: &durations) }
        } else if let array = value as? [Any] {
            for child in array { collectTaskCopy(child, frequencies: &frequencies, durations: &durations) }
        }
    }

    /// A small JSON file as Foundation objects; nil when absent.
    private static func json(_ url: URL) throws -> Any? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            throw QualityError(path: url.path, reason: "The file is not valid JSON (\(error.localizedDescription)); repair or remove it and check again.")
        }
    }

    private static func date(_ value: Any?) -> Date? {
        (value as? String).flatMap(Timestamp.date(from:))
    }

    private static func text(_ value: Any) -> String {
        if let string = value as? String { return string }
        if let number = value as? NSNumber { return number.stringValue }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }
}
