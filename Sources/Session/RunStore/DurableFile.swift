import Foundation
import SystemCalls
import SystemPackage

/// Every file-system call the run store makes that must survive a crash: atomic replacement
/// (temporary file, fsync, rename, fsync of the directory) and directory syncs. Blocking; the
/// session calls the store off its actor (docs/runs.md).
enum DurableFile {
    /// Suffix of temporary files; a crash can leave one behind, which readers ignore and
    /// recovery removes.
    static let temporarySuffix = AtomicFile.temporarySuffix

    /// Replaces `url` with `data` so that a reader sees either the old file or the new one,
    /// never part of one, even across a power cut (`AtomicFile`, shared with the metrics files).
    static func write(_ data: Data, to url: URL, operation: String) throws(RunStoreError) {
        do {
            try data.withUnsafeBytes { try AtomicFile.replace(url.path, with: $0) }
        } catch let error as SystemCallError where error.call == "rename" {
            throw RunStoreError(operation, path: url.path, reason: "rename failed: \(error.errno)", advice: advice(for: error))
        } catch {
            throw RunStoreError(operation, path: url.path, reason: describe(error), advice: advice(for: error))
        }
    }

    /// Makes the directory's entries (new, renamed or removed files) durable.
    static func syncDirectory(_ url: URL, operation: String) throws(RunStoreError) {
        do { try AtomicFile.sync(url.path, directory: true) } catch {
            throw RunStoreError(operation, path: url.path, reason: "syncing the directory failed: \(describe(error))")
        }
    }

    /// Flushes a file already written by someone else (the archive) to the disk.
    static func syncFile(_ url: URL, operation: String) throws(RunStoreError) {
        do { try AtomicFile.sync(url.path) } catch {
            throw RunStoreError(operation, path: url.path, reason: describe(error), advice: advice(for: error))
        }
    }

    /// The error number of a failed system call, if `error` is one.
    private static func errno(of error: any Error) -> Errno? {
        (error as? SystemCallError)?.errno ?? error as? Errno
    }

    static func describe(_ error: any Error) -> String {
        if let errno = errno(of: error) { return errno.description }
        return "\(error)"
    }

    static func advice(for error: any Error) -> String {
        switch errno(of: error) {
        case .noSpace?: "Free space on the data disk; an earlier copy of the file, if any, is kept."
        case .permissionDenied?, .notPermitted?: "Give the daemon's user write access to the data directory."
        case .readOnlyFileSystem?: "The data disk is mounted read-only; remount it read-write."
        default: ""
        }
    }
}
