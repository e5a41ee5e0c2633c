import TaskModel
import ArgumentParser
import ControlProtocol
import Foundation

/// Builds `task.load`'s params from a task file on this machine: the task inline, with the
/// transform resources it names (`resourceName`) from the same directory, so the daemon needs
/// no access to the file.
enum TaskUpload {
    static func params(for file: String) throws -> TaskLoadParams {
        let url = URL(fileURLWithPath: file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ValidationError("Cannot read \(file): \(error.localizedDescription)")
        }
        guard let task = try? JSONDecoder().decode(JSONValue.self, from: data), case .object = task else {
            // Not strict JSON (JSON5 and the like): let the daemon's loader read the file itself.
            return TaskLoadParams(path: url.standardizedFileURL.path)
        }
        // Resources may name resources of their own (a section transform holding transforms).
        var resources: [String: JSONValue] = [:]
        var pending = Array(resourceNames(in: task))
        while let name = pending.popLast() {
            guard resources[name] == nil else { continue }
            var resource = url.deletingLastPathComponent().appendingPathComponent(name)
            if resource.pathExtension.isEmpty { resource.appendPathExtension("json") }
            if let data = try? Data(contentsOf: resource), let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
                resources[name] = value
                pending += resourceNames(in: value)
            }
        }
        return TaskLoadParams(task: task, resources: resources.isEmpty ? nil : resources)
    }

    /// Every `resourceName` string in the task (transform steps' resourceTransformer).
    private static func resourceNames(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let members):
            var names = Set(members.values.flatMap(resourceNames))
            if case .string(let name)? = members["resourceName"] { names.insert(name) }
            return names
        case .array(let items):
            return Set(items.flatMap(resourceNames))
        default:
            return []
        }
    }
}
