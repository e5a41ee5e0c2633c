import ControlProtocol
import Foundation

/// An image beside a task file, found for `tasks.image` (docs/protocol.md, "tasks.image").
/// Only image types are served, at most `maximumSize` bytes (base64 of it fits a control line).
struct TaskImageFile {
    /// 512 KiB: its base64 (about 700 KiB) stays under the control socket's 1 MiB line.
    static let maximumSize = 512 * 1024

    /// Content types by file extension; the order is the one tried for a name without one.
    static let contentTypes: [(extension: String, type: String)] = [
        ("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("svg", "image/svg+xml"),
        ("gif", "image/gif"), ("webp", "image/webp"),
    ]

    var directory: URL

    /// Reads the image; blocking. Throws `invalidParams` for a name that is not a plain
    /// relative path, `notFound` for everything else that does not give an image.
    func read(_ params: TaskImageParams) throws(ControlError) -> TaskImage {
        let method = ControlMethods.tasksImage.name
        let folder = TaskFolderFile(directory: directory, contentTypes: Self.contentTypes)
        if let found = try folder.find(task: params.task, name: params.name, method: method) {
            guard found.size <= Self.maximumSize else {
                throw ControlError(.notFound, "The image \(found.file) is larger than \(Self.maximumSize / 1024) KiB; make it smaller to show it.",
                                   data: ControlErrorData(method: method))
            }
            if let data = FileManager.default.contents(atPath: found.path) {
                return TaskImage(file: found.file, contentType: found.contentType, base64: data.base64EncodedString())
            }
        }
        throw ControlError(.notFound,
                           "No image \"\(params.name)\" was found beside \(params.task) in the task directory; images are PNG, JPEG, SVG, GIF or WebP files there.",
                           data: ControlErrorData(method: method))
    }
}
