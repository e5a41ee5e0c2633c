import Foundation
import SystemCalls
import SystemPackage

/// The run store's crash-safe writes, through SystemCalls' `DurableFile` (the one writer every
/// module uses), with its failures told as `RunStoreError`s that say what to do. Blocking; the
/// session calls the store off its actor (docs/runs.md).
enum RunStoreFile {
    /// Replaces `url` with `data` so that a reader sees either the old file or the new one,
    /// never part of one, even across a power cut.
    static func write(_ data: Data, to url: URL, operation: String) throws(RunStoreError) {
        do {
            let result: Result<Void, SystemCallError> = data.withUnsafeBytes { bytes in
                do throws(SystemCallError) { return .success(try DurableFile.write(bytes, to: url.path)) } catch { return .failure(error) }
            }
            try result.get()
        } catch {
            throw RunStoreError(operation, path: url.path, reason: error.description, advice: advice(for: error.errno))
        }
    }

    /// Moves `temporary`, written beside `url` by the archive library, into place durably.
    static func commit(_ temporary: URL, to url: URL, operation: String) throws(RunStoreError) {
        do {
            try DurableFile.commit(temporary.path, to: url.path)
        } catch {
            throw RunStoreError(operation, path: url.path, reason: error.description, advice: advice(for: error.errno))
        }
    }

    /// Makes the directory's entries (new, renamed or removed files) durable.
    static func syncDirectory(_ url: URL, operation: String) throws(RunStoreError) {
        do {
            try DurableFile.syncDirectory(url.path)
        } catch {
            throw RunStoreError(operation, path: url.path, reason: "syncing the directory failed: \(error.description)")
        }
    }

    static func advice(for errno: Errno) -> String {
        switch errno {
        case .noSpace: "Free space on the data disk; an earlier copy of the file, if any, is kept."
        case .permissionDenied, .notPermitted: "Give the daemon's user write access to the data directory."
        case .readOnlyFileSystem: "The data disk is mounted read-only; remount it read-write."
        default: ""
        }
    }
}
