public import SystemPackage
import Glibc

/// The one way this codebase writes a file that must survive a crash or a power cut
/// (docs/system-calls.md): a temporary file beside it, fsync, rename over it, fsync of the
/// directory. A reader sees the old file or the new one, never part of one. Blocking: call it
/// from a dedicated thread or a command-line tool, never from an actor.
public enum DurableFile {
    /// Suffix of temporary files; a crash can leave one behind, which readers ignore and
    /// recoveries remove.
    public static let temporarySuffix = ".partial"

    /// A fresh temporary name beside `path` (hidden, ending in `temporarySuffix`).
    public static func temporaryPath(beside path: String) -> String {
        let file = FilePath(path)
        let directory = file.removingLastComponent()
        let name = file.lastComponent?.string ?? "file"
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return directory.appending(".\(name).\(random)\(temporarySuffix)").string
    }

    /// Replaces the file at `path` with `bytes`, durably, with `permissions` (less the process's
    /// umask, unless `exactPermissions`: a file another user's process must read whatever the
    /// unit's UMask, such as a metrics text file, docs/fleet.md).
    public static func write(
        _ bytes: UnsafeRawBufferPointer, to path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead],
        exactPermissions: Bool = false
    ) throws(SystemCallError) {
        let temporary = temporaryPath(beside: path)
        do {
            let descriptor = try Syscalls.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate, .exclusiveCreate, .closeOnExec],
                permissions: permissions)
            try closing(descriptor, path: temporary) { () throws(SystemCallError) in
                try Syscalls.writeAll(descriptor, bytes, path: temporary)
                try Syscalls.fsync(descriptor, path: temporary)
            }
            if exactPermissions { try Syscalls.chmod(temporary, mode: permissions.rawValue) }
        } catch {
            try? Syscalls.unlink(temporary)
            throw error
        }
        try commit(syncedTemporary: temporary, to: path)
    }

    /// Replaces the file at `path` with `bytes`, durably.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let result: Result<Void, SystemCallError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) { return .success(try write(buffer, to: path)) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Moves `temporary`, a file someone else wrote beside `path` (an archive library), into
    /// place durably: its data is flushed first, then renamed over `path`.
    public static func commit(_ temporary: String, to path: String) throws(SystemCallError) {
        do {
            try syncFile(temporary)
        } catch {
            try? Syscalls.unlink(temporary)
            throw error
        }
        try commit(syncedTemporary: temporary, to: path)
    }

    /// Makes the directory's entries (files created, renamed or removed in it) durable.
    public static func syncDirectory(_ path: String) throws(SystemCallError) {
        let descriptor = try Syscalls.open(FilePath(path), .readOnly, options: [.directory, .closeOnExec])
        try closing(descriptor, path: path) { () throws(SystemCallError) in try Syscalls.fsync(descriptor, path: path) }
    }

    /// Flushes a file already written to the disk.
    public static func syncFile(_ path: String) throws(SystemCallError) {
        let descriptor = try Syscalls.open(FilePath(path), .readOnly, options: [.closeOnExec])
        try closing(descriptor, path: path) { () throws(SystemCallError) in try Syscalls.fsync(descriptor, path: path) }
    }

    private static func commit(syncedTemporary temporary: String, to path: String) throws(SystemCallError) {
        do {
            try Syscalls.rename(temporary, to: path)
        } catch {
            try? Syscalls.unlink(temporary)
            throw error
        }
        try syncDirectory(FilePath(path).removingLastComponent().string.ifEmpty("."))
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

private extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
