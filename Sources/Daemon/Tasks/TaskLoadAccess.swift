public import ControlServer
public import ControlProtocol
public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `task.load` may read a task file from, by who asks (docs/protocol.md, "task.load"):
/// the daemon's administrators (root, the daemon's own user, the `activetask` user, by the
/// connection's SO_PEERCRED) load any path, absolute or relative to the task directory; every
/// other client (a front end in group `activetask-ui`, `activetask-web`) only a file of the
/// task directory, by a plain relative name whose real path, symlinks followed, stays inside,
/// and whose includes stay inside too (`includeRoots`).
public struct TaskLoadAccess: Sendable {
    /// The user the packaged units run the daemon as.
    public static let daemonUserName = "activetask"

    public var taskDirectory: URL
    /// The user ids that may load any path.
    public var administrators: Set<UInt32>

    public init(taskDirectory: URL, administrators: Set<UInt32> = Self.administrators()) {
        self.taskDirectory = taskDirectory
        self.administrators = administrators
    }

    /// Root, this process's user, and the `activetask` user where it exists.
    public static func administrators() -> Set<UInt32> {
        var ids: Set<UInt32> = [0, getuid()]
        if let entry = getpwnam(daemonUserName) { ids.insert(entry.pointee.pw_uid) }
        return ids
    }

    /// Whether `peer` is one of the daemon's administrators.
    public func isAdministrator(_ peer: PeerCredentials) -> Bool {
        administrators.contains(peer.uid)
    }

    /// The folders a task loaded for `peer` may include files from (`TaskLoader.includeRoots`):
    /// any for an administrator; else the task directory, and `inlineFolder` for an inline task.
    public func includeRoots(for peer: PeerCredentials, inlineFolder: URL? = nil) -> [URL]? {
        isAdministrator(peer) ? nil : [taskDirectory] + (inlineFolder.map { [$0] } ?? [])
    }

    /// The file `path` names for `peer`, or the refusal (`invalidParams` on `path`); blocking
    /// (it follows symlinks on disk).
    public func resolve(_ path: String, for peer: PeerCredentials) throws(ControlError) -> String {
        if isAdministrator(peer) {
            return path.hasPrefix("/") ? path : taskDirectory.appendingPathComponent(path).path
        }
        guard TaskDirectoryPath.isPlainRelative(path) else {
            throw refusal("\"\(path)\" is not a task of the task directory; name a file as tasks.list lists it (relative, without \"..\"). Only the daemon's administrators (root or the activetask user) load other paths.")
        }
        let file = taskDirectory.appendingPathComponent(path)
        let root = taskDirectory.resolvingSymlinksInPath().standardizedFileURL.path
        // A missing file stays where it was named, inside: the loader says it is missing.
        let resolved = file.resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(root + "/") else {
            throw refusal("\"\(path)\" leads out of the task directory (a symlink); only the daemon's administrators (root or the activetask user) load a task from outside it. Copy the task into the task directory.")
        }
        // The path as named: the loader resolves the task's own includes beside it.
        return file.path
    }

    private func refusal(_ message: String) -> ControlError {
        ControlError(.invalidParams, message, data: ControlErrorData(codingPath: "path", method: ControlMethods.taskLoad.name))
    }
}
