/// A path relative to the daemon's task directory, as `tasks.list` gives them and `task.load`,
/// `tasks.image` and `tasks.resource` take them (docs/protocol.md, "The task directory").
public enum TaskDirectoryPath {
    /// Whether `path` is a relative path without `..`, `.` or empty components (no NUL, no
    /// backslash): one that cannot name anything outside the directory but through a symlink,
    /// which the daemon checks on disk.
    public static func isPlainRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != ".." && $0 != "." && !$0.isEmpty }
    }
}
