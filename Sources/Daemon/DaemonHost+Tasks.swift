import BlockingCalls
import ControlProtocol
import ControlServer
import Foundation
import Session
import TaskModel

/// The task directory: listing its tasks, reading their images and resources, loading one.
extension DaemonHost {
    /// `tasks.list`: the task directory's task files, read on a dedicated thread.
    func taskList() async throws -> TaskList {
        let catalog = TaskCatalog(directory: settings.taskDirectory,
                                  loader: TaskLoader(registry: settings.typeRegistry, taskDirectory: settings.taskDirectory))
        return try await BlockingCall.run("tasks-list") { catalog.list() }
    }

    /// `tasks.image`: an image file beside a task file, read on a dedicated thread.
    func taskImage(_ params: TaskImageParams) async throws -> TaskImage {
        let file = TaskImageFile(directory: settings.taskDirectory)
        return try await BlockingCall.run("tasks-image") { () throws -> TaskImage in try file.read(params) }
    }

    /// `tasks.resource`: a piece of a page or video beside a task file, read on a dedicated thread.
    func taskResource(_ params: TaskResourceParams) async throws -> TaskResource {
        let file = TaskResourceFile(directory: settings.taskDirectory)
        return try await BlockingCall.run("tasks-resource") { () throws -> TaskResource in try file.read(params) }
    }

    /// `task.load` from `peer`: a path only where `TaskLoadAccess` lets that client read, inline
    /// JSON through a folder that lives for the load only (`InlineTaskFolder`).
    func load(_ params: TaskLoadParams, from peer: PeerCredentials) async throws -> LoadedTask {
        try await refuseWhileARunGoes()
        let loader = TaskLoader(registry: settings.typeRegistry, taskDirectory: settings.taskDirectory)
        let access = TaskLoadAccess(taskDirectory: settings.taskDirectory)
        let inline = InlineTaskFolder(dataDirectory: settings.dataDirectory)
        let (task, origin): (TaskDefinition, String) = try await BlockingCall.run("task-load") { () throws -> (TaskDefinition, String) in
            do {
                if let path = params.path {
                    let resolved = try access.resolve(path, for: peer)
                    var confined = loader
                    confined.includeRoots = access.includeRoots(for: peer)
                    return (try confined.loadTask(path: resolved).task, resolved)
                }
                let loaded = try inline.withFolder(for: params) { data, directory in
                    var confined = loader
                    confined.includeRoots = access.includeRoots(for: peer, inlineFolder: directory)
                    return try confined.load(data: data, displayName: "task", baseDirectory: directory)
                }
                guard case .task(let task) = loaded.document else {
                    throw ControlError.taskInvalid(codingPath: "task", reason: "This is a \(loaded.document.kindDescription), not a task; send the task that includes it.")
                }
                return (task, "inline")
            } catch let error as TaskLoadError {
                throw ControlError.taskInvalid(codingPath: error.codingPath, reason: "\(error.file): \(error.reason)")
            }
        }
        loaded = Loaded(task: task, origin: origin)
        logger.info("Task loaded", metadata: ["taskIdentifier": "\(task.identifier)", "origin": "\(origin)"])
        // The playback device runs from the task's load, so that its delay has settled and is
        // measured before the run's first prompt (docs/audio.md, "Voice prompts"); the run's end
        // lets it go. Opening the prompter here also moves that cost out of run.start.
        await voicePrompter()?.holdStream(true)
        return LoadedTask(
            taskIdentifier: task.identifier, schemaIdentifier: task.properties["schemaIdentifier"]?.stringValue,
            versionString: task.properties["versionString"]?.stringValue, stepCount: task.allLocations().count,
            asyncActions: task.allAsyncActionIdentifiers)
    }
}
