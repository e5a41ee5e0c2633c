import Foundation
import Glibc
import SystemPackage

/// Every file-system call the run store makes that must survive a crash: atomic replacement
/// (temporary file, fsync, rename, fsync of the directory) and directory syncs. Blocking; the
/// session calls the store off its actor (docs/runs.md).
enum DurableFile {
    /// Suffix of temporary files; a crash can leave one behind, which readers ignore and
    /// recovery removes.
    static let temporarySuffix = ".partial"

    /// Replaces `url` with `data` so that a reader sees either the old file or the new one,
    /// never part of one, even across a power cut.
    static func write(_ data: Data, to url: URL, operation: String) throws(RunStoreError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8))\(temporarySuffix)")
        do {
            let descriptor = try FileDescriptor.open(
                FilePath(temporary.path), .writeOnly, options: [.create, .truncate, .exclusiveCreate],
                permissions: [.ownerReadWrite, .groupRead, .otherRead], retryOnInterrupt: true)
            try descriptor.closeAfter {
                _ = try data.withUnsafeBytes { try descriptor.writeAll($0) }
                try sync(descriptor)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RunStoreError(operation, path: url.path, reason: describe(error), advice: advice(for: error))
        }
        guard Glibc.rename(temporary.path, url.path) == 0 else {
            let error = Errno(rawValue: errno)
            try? FileManager.default.removeItem(at: temporary)
            throw RunStoreError(operation, path: url.path, reason: "rename failed: \(error)", advice: advice(for: error))
        }
        try syncDirectory(url.deletingLastPathComponent(), operation: operation)
    }

    /// Makes the directory's entries (new, renamed or removed files) durable.
    static func syncDirectory(_ url: URL, operation: String) throws(RunStoreError) {
        do {
            let descriptor = try FileDescriptor.open(FilePath(url.path), .readOnly, options: [.directory], retryOnInterrupt: true)
            try descriptor.closeAfter { try sync(descriptor) }
        } catch {
            throw RunStoreError(operation, path: url.path, reason: "syncing the directory failed: \(describe(error))")
        }
    }

    /// Flushes a file already written by someone else (the archive) to the disk.
    static func syncFile(_ url: URL, operation: String) throws(RunStoreError) {
        do {
            let descriptor = try FileDescriptor.open(FilePath(url.path), .readOnly, retryOnInterrupt: true)
            try descriptor.closeAfter { try sync(descriptor) }
        } catch {
            throw RunStoreError(operation, path: url.path, reason: describe(error), advice: advice(for: error))
        }
    }

    private static func sync(_ descriptor: FileDescriptor) throws {
        while fsync(descriptor.rawValue) != 0 {
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? Errno { return error.description }
        return "\(error)"
    }

    static func advice(for error: any Error) -> String {
        switch error as? Errno {
        case .noSpace?: "Free space on the data disk; an earlier copy of the file, if any, is kept."
        case .permissionDenied?, .notPermitted?: "Give the daemon's user write access to the data directory."
        case .readOnlyFileSystem?: "The data disk is mounted read-only; remount it read-write."
        default: ""
        }
    }
}
