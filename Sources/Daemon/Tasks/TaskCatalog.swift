import ControlProtocol
import Foundation
import TaskModel

/// The task files of the task directory as `tasks.list` answers them (docs/protocol.md,
/// "tasks.list"): every `*.json` file at its top level, by name. A file that is a section or
/// another transform resource is left out; a file that does not load is listed with the
/// loader's sentence, so one broken file never hides the others.
struct TaskCatalog {
    var directory: URL
    var loader: TaskLoader

    /// Reads the directory; blocking (the daemon calls it on a dedicated thread).
    func list() -> TaskList {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let entries = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().compactMap { name -> TaskListEntry? in
            do throws(TaskLoadError) {
                let loaded = try loader.load(path: directory.appendingPathComponent(name).path)
                guard case .task(let task) = loaded.document else { return nil }
                return Self.entry(file: name, task: task)
            } catch {
                return TaskListEntry(file: name, error: "\(error.file): \(error.reason)")
            }
        }
        return TaskList(taskDirectory: directory.path, tasks: entries)
    }

    /// What a home screen shows of `task`: its own task-info keys, else its first step's.
    static func entry(file: String, task: TaskDefinition) -> TaskListEntry {
        let first = task.steps.first?.properties ?? [:]
        func text(_ keys: [String], in properties: [String: JSONValue]) -> String? {
            keys.lazy.compactMap { properties[$0]?.stringValue }.first { !$0.isEmpty }
        }
        let icon = text(["icon"], in: task.properties)
            ?? text(["icon"], in: first)
            ?? first["image"]?["imageName"]?.stringValue
        return TaskListEntry(
            file: file, identifier: task.identifier,
            title: text(["title"], in: task.properties) ?? text(["title"], in: first),
            detail: text(["detail", "subtitle"], in: task.properties) ?? text(["detail", "subtitle", "text"], in: first),
            icon: icon,
            estimatedMinutes: task.properties["estimatedMinutes"]?.doubleValue)
    }
}
