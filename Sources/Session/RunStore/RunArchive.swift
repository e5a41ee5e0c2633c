public import Foundation
import SystemCalls
import ZIPFoundation

/// The upload archive `<taskRunUUID>.zip`: `taskResult.json`, `answers.json`, `metadata.json`
/// and the recorder files, deflated, written to a temporary name and renamed into place so an
/// uploader never picks up half an archive.
public enum RunArchive {
    /// Zips `entries` (paths relative to `directory`) into `destination`, replacing it atomically.
    public static func write(entries: [String], from directory: URL, to destination: URL) throws(RunStoreError) {
        let operation = "write the archive"
        let temporary = URL(fileURLWithPath: DurableFile.temporaryPath(beside: destination.path))
        do {
            let archive = try Archive(url: temporary, accessMode: .create)
            for entry in entries {
                try archive.addEntry(with: entry, relativeTo: directory, compressionMethod: .deflate)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RunStoreError(operation, path: destination.path, reason: "\(error)",
                                advice: "Check that the run directory's files are readable and the disk has space; the run's files are kept.")
        }
        try RunStoreFile.commit(temporary, to: destination, operation: operation)
    }

    /// The entry names of an archive, in order; for checks and `activetaskctl archive`.
    public static func entryNames(of url: URL) throws(RunStoreError) -> [String] {
        do {
            let archive = try Archive(url: url, accessMode: .read)
            return archive.map(\.path)
        } catch {
            throw RunStoreError("read the archive", path: url.path, reason: "\(error)",
                                advice: "The archive is damaged; rewrite it with the run's files (recovery does this).")
        }
    }
}
