public import SystemPackage

/// Replaces a file so that a reader sees either the old file or the new one, never part of
/// one, even across a power cut: a temporary file in the same directory, fsync, rename over
/// the file, fsync of the directory. The run store's manifests (docs/runs.md) and the metrics
/// text files (docs/fleet.md) are written through it.
public enum AtomicFile {
    /// Suffix of temporary files; a crash can leave one behind, which readers ignore (its name
    /// starts with a dot and does not end in the file's own extension).
    public static let temporarySuffix = ".partial"

    /// Writes `bytes` to `path` atomically with `permissions` (less the process's umask, unless
    /// `exactPermissions`: a file another user's process must read, whatever the unit's UMask);
    /// the temporary file is removed when any step fails, and the error names the call that
    /// failed and its path.
    public static func replace(
        _ path: String, with bytes: UnsafeRawBufferPointer,
        permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead], exactPermissions: Bool = false
    ) throws(SystemCallError) {
        let file = FilePath(path)
        let directory = file.removingLastComponent()
        let name = file.lastComponent?.string ?? path
        let random = UInt32.random(in: 0...UInt32.max)
        let temporary = directory.appending(".\(name).\(String(random, radix: 16))\(temporarySuffix)").string
        do {
            let descriptor = try Syscalls.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate, .exclusiveCreate, .closeOnExec],
                permissions: permissions)
            try closing(descriptor, path: temporary) { () throws(SystemCallError) in
                try Syscalls.writeAll(descriptor, bytes, path: temporary)
                try Syscalls.fsync(descriptor, path: temporary)
            }
            if exactPermissions { try Syscalls.chmod(temporary, mode: permissions.rawValue) }
            try Syscalls.rename(temporary, to: path)
        } catch {
            try? Syscalls.unlink(temporary)
            throw error
        }
        try sync(directory.isEmpty ? "." : directory.string, directory: true)
    }

    /// fsync of what is at `path`: a file someone else wrote, or with `directory` a
    /// directory's entries (new, renamed or removed files).
    public static func sync(_ path: String, directory: Bool = false) throws(SystemCallError) {
        let descriptor = try Syscalls.open(FilePath(path), .readOnly, options: directory ? [.directory, .closeOnExec] : [.closeOnExec])
        try closing(descriptor, path: path) { () throws(SystemCallError) in try Syscalls.fsync(descriptor, path: path) }
    }

    /// Runs `body`, then closes `descriptor` whether it threw or not; a failed close (a write
    /// the disk refused late) counts as the body's failure.
    private static func closing(
        _ descriptor: FileDescriptor, path: String, _ body: () throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        do {
            try body()
        } catch {
            try? Syscalls.close(descriptor, path: path)
            throw error
        }
        try Syscalls.close(descriptor, path: path)
    }
}
