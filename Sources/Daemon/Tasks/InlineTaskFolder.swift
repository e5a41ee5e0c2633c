import ControlProtocol
import Foundation
import TaskModel

/// Where an inline `task.load` puts its task and transform resources while the loader reads
/// them (docs/protocol.md, "task.load"): `inline-tasks/<UUID>/` under the data directory. The
/// loaded task holds everything it read (a run keeps its own copy, `task.json`), so a folder
/// lives only for its load; folders left by a daemon that stopped mid-load are removed at start.
/// Bounded: at most `maximumFolders` loads at once, `maximumResources` resources and
/// `maximumBytes` written per load.
struct InlineTaskFolder {
    static let folderName = "inline-tasks"
    /// Inline loads under way at once (each connection's load is one).
    static let maximumFolders = 16
    static let maximumResources = 256
    /// The task and its resources as written; a control line is at most 1 MiB, and its JSON
    /// written again is about the same size.
    static let maximumBytes = 4 << 20

    var dataDirectory: URL

    var root: URL { dataDirectory.appendingPathComponent(Self.folderName) }

    /// Removes every folder a previous daemon left; blocking.
    func removeStale() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes `params`' task and resources into a new folder and calls `body` with the task's
    /// JSON and the folder, removing the folder afterwards whatever `body` does; blocking.
    func withFolder<Result>(for params: TaskLoadParams, _ body: (Data, URL) throws -> Result) throws -> Result {
        let method = ControlMethods.taskLoad.name
        guard let task = params.task else {
            throw ControlError.taskInvalid(codingPath: "task", reason: "task.load needs `path` or `task`.")
        }
        let resources = params.resources ?? [:]
        guard resources.count <= Self.maximumResources else {
            throw ControlError(.invalidParams, "An inline task has at most \(Self.maximumResources) resources, not \(resources.count); put a larger task into the task directory and load it by path.",
                               data: ControlErrorData(codingPath: "resources", method: method))
        }
        let encoder = JSONEncoder()
        var files: [(name: String, data: Data)] = []
        for (name, resource) in resources.sorted(by: { $0.key < $1.key }) {
            guard TaskDirectoryPath.isPlainRelative(name), !name.contains("/") else {
                throw ControlError(.invalidParams, "The resource name \"\(name)\" is not a plain file name; name resources as the task's resourceName does.",
                                   data: ControlErrorData(codingPath: "resources.\(name)", method: method))
            }
            let data = try encoder.encode(resource)
            files.append((name, data))
            if (name as NSString).pathExtension.isEmpty { files.append((name + ".json", data)) }
        }
        let taskData = try encoder.encode(task)
        let total = files.reduce(taskData.count) { $0 + $1.data.count }
        guard total <= Self.maximumBytes else {
            throw ControlError(.invalidParams, "An inline task and its resources are at most \(Self.maximumBytes >> 20) MiB, not \(total) bytes; put a larger task into the task directory and load it by path.",
                               data: ControlErrorData(codingPath: "task", method: method))
        }
        let manager = FileManager.default
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        let present = (try? manager.contentsOfDirectory(atPath: root.path).count) ?? 0
        guard present < Self.maximumFolders else {
            throw ControlError(.commandOutOfOrder, "\(present) inline tasks are being loaded at once, the most there may be; load this one when another has loaded.",
                               data: ControlErrorData(state: "\(present) inline loads under way", allowed: ["task.load by path"], method: method))
        }
        let directory = root.appendingPathComponent(UUID().uuidString)
        try manager.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? manager.removeItem(at: directory) }
        for file in files { try file.data.write(to: directory.appendingPathComponent(file.name)) }
        return try body(taskData, directory)
    }
}
