import ControlProtocol
import Foundation

/// A file beside a task file, found by the name the task gives it, for `tasks.image` and
/// `tasks.resource` (docs/protocol.md, "The task directory").
///
/// The task and file names are relative and stay inside the task directory: an absolute
/// path, a `..` component, or a symlink that leads out of the directory is answered "not
/// found", as a missing file is, so a client learns nothing about the files around it. Only
/// the content types given are served.
struct TaskFolderFile {
    /// What was found: its name relative to the task directory, its path on disk, its content
    /// type and size.
    struct Found: Equatable {
        var file: String
        var path: String
        var contentType: String
        var size: Int
    }

    var directory: URL
    /// Content types by file extension; the order is the one tried for a name without one.
    var contentTypes: [(extension: String, type: String)]

    /// The candidate file names for `name` beside `task`: the name as given when it has one of
    /// the extensions, else the name with each extension.
    func candidates(task: String, name: String) -> [String] {
        let folder = (task as NSString).deletingLastPathComponent
        let base = folder.isEmpty ? name : folder + "/" + name
        let written = (name as NSString).pathExtension.lowercased()
        if contentTypes.contains(where: { $0.extension == written }) { return [base] }
        return contentTypes.map { base + "." + $0.extension }
    }

    /// The first candidate that is a regular file inside the directory, nil when none is; blocking.
    /// Throws `invalidParams` for a task or name that is not a plain relative path.
    func find(task: String, name: String, method: String) throws(ControlError) -> Found? {
        for (member, value) in [("task", task), ("name", name)] where !TaskDirectoryPath.isPlainRelative(value) {
            throw ControlError(.invalidParams,
                               "\(method): \(member) must be a relative path inside the task directory, without \"..\"; use the names tasks.list and the task's steps give.",
                               data: ControlErrorData(codingPath: member, method: method))
        }
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        for candidate in candidates(task: task, name: name) {
            let resolved = directory.appendingPathComponent(candidate).resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let fileExtension = (candidate as NSString).pathExtension.lowercased()
            guard let type = contentTypes.first(where: { $0.extension == fileExtension })?.type,
                  let size = (try? FileManager.default.attributesOfItem(atPath: resolved)[.size]) as? Int else { continue }
            return Found(file: candidate, path: resolved, contentType: type, size: size)
        }
        return nil
    }
}
