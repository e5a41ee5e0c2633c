import Foundation
import TaskModel

/// Builds tasks for navigation tests from JSON text, through the real loader.
enum TaskJSON {
    static func task(_ text: String, registry: TypeRegistry = .standard) throws -> TaskDefinition {
        let loaded = try TaskLoader(registry: registry).load(data: Data(text.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else {
            throw TaskLoadError(file: "inline", codingPath: "(root)", reason: "The JSON is not a task.")
        }
        return task
    }
}
