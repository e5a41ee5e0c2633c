import ControlProtocol
import Foundation

/// An image beside a task file, found for `tasks.image` (docs/protocol.md, "tasks.image").
///
/// The task and image names are relative and stay inside the task directory: an absolute
/// path, a `..` component, or a symlink that leads out of the directory is answered "not
/// found", as a missing file is, so a client learns nothing about the files around it. Only
/// image types are served, at most `maximumSize` bytes (base64 of it fits a control line).
struct TaskImageFile {
    /// 512 KiB: its base64 (about 700 KiB) stays under the control socket's 1 MiB line.
    static let maximumSize = 512 * 1024

    /// Content types by file extension; the order is the one tried for a name without one.
    static let contentTypes: [(extension: String, type: String)] = [
        ("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("svg", "image/svg+xml"),
        ("gif", "image/gif"), ("webp", "image/webp"),
    ]

    var directory: URL

    /// Whether `path` is a relative path without `..`, `.` or empty components.
    static func isPlainRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != ".." && $0 != "." && !$0.isEmpty }
    }

    /// The candidate file names for `name` beside `task`: the name as given when it has an
    /// image extension, else the name with each image extension.
    static func candidates(task: String, name: String) -> [String] {
        let folder = (task as NSString).deletingLastPathComponent
        let base = folder.isEmpty ? name : folder + "/" + name
        let written = (name as NSString).pathExtension.lowercased()
        if contentTypes.contains(where: { $0.extension == written }) { return [base] }
        return contentTypes.map { base + "." + $0.extension }
    }

    /// Reads the image; blocking. Throws `invalidParams` for a name that is not a plain
    /// relative path, `notFound` for everything else that does not give an image.
    func read(_ params: TaskImageParams) throws(ControlError) -> TaskImage {
        let method = ControlMethods.tasksImage.name
        for (member, value) in [("task", params.task), ("name", params.name)] where !Self.isPlainRelative(value) {
            throw ControlError(.invalidParams,
                               "\(method): \(member) must be a relative path inside the task directory, without \"..\"; use the names tasks.list and the task's steps give.",
                               data: ControlErrorData(codingPath: member, method: method))
        }
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        for candidate in Self.candidates(task: params.task, name: params.name) {
            let url = directory.appendingPathComponent(candidate)
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let fileExtension = (candidate as NSString).pathExtension.lowercased()
            guard let type = Self.contentTypes.first(where: { $0.extension == fileExtension })?.type else { continue }
            let size = (try? FileManager.default.attributesOfItem(atPath: resolved)[.size] as? Int) ?? 0
            guard size <= Self.maximumSize else {
                throw ControlError(.notFound, "The image \(candidate) is larger than \(Self.maximumSize / 1024) KiB; make it smaller to show it.",
                                   data: ControlErrorData(method: method))
            }
            guard let data = FileManager.default.contents(atPath: resolved) else { continue }
            return TaskImage(file: candidate, contentType: type, base64: data.base64EncodedString())
        }
        throw ControlError(.notFound,
                           "No image \"\(params.name)\" was found beside \(params.task) in the task directory; images are PNG, JPEG, SVG, GIF or WebP files there.",
                           data: ControlErrorData(method: method))
    }
}
