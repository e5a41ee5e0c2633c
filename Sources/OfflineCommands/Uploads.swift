import ArgumentParser
import CommandOutput
import Foundation
import Upload

/// `activetaskctl uploads [--data-dir D] [--json]`: the runs waiting to reach the study's storage,
/// with size, state, attempts, last error and next try (docs/upload.md, "Seeing the
/// queue"). It reads the data directory (the daemon's outbox, the uploader's receipts and its
/// `uploads/queue.json`), so it works whether or not activetaskd and activetask-upload run.
struct Uploads: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the runs waiting to be uploaded: size, state, attempts, last error and next try.")

    @Option(name: .customLong("data-dir"), help: "The data directory activetaskd and activetask-upload share.")
    var dataDirectory = "/var/lib/activetask"

    @Flag(help: "Print the list as JSON.")
    var json = false

    /// What `--json` prints.
    struct Listing: Encodable {
        var dataDirectory: String
        /// When activetask-upload last wrote its queue; nil when it never has.
        var uploaderUpdated: String?
        var uploads: [UploadQueueSnapshot.Run]
        /// Outbox entries that cannot be read (left alone by the uploader too).
        var unreadable: [String]
    }

    func run() throws {
        let directories = UploadDirectories(dataDirectory: URL(fileURLWithPath: dataDirectory).standardizedFileURL)
        guard FileManager.default.fileExists(atPath: directories.outbox.path) else {
            FileHandle.standardError.write(Data("""
                activetaskctl uploads: uploads are not configured for \(directories.dataDirectory.path): \
                \(directories.outbox.path) does not exist. Set up activetask-upload as docs/upload.md says, \
                or give the data directory with --data-dir.\n
                """.utf8))
            throw ExitCode(1)
        }
        let (pending, unreadable) = directories.pending()
        let snapshot = directories.readQueueSnapshot()
        let runs = UploadQueueListing.runs(pending: pending, mismatched: directories.receiptsNotConfirming(), snapshot: snapshot)
        if json {
            try JSONOutput.print(Listing(dataDirectory: directories.dataDirectory.path, uploaderUpdated: snapshot?.updated,
                                         uploads: runs, unreadable: unreadable))
            return
        }
        print(Self.table(runs))
        if let updated = snapshot?.updated {
            print("activetask-upload last wrote its queue at \(updated).")
        } else {
            print("activetask-upload has not written its queue yet (is it running? systemctl status activetask-upload).")
        }
        for name in unreadable {
            print("The outbox entry \(directories.outbox.path)/\(name) cannot be read; remove or repair it.")
        }
    }

    /// The runs as a table, or a sentence when there are none.
    static func table(_ runs: [UploadQueueSnapshot.Run]) -> String {
        guard !runs.isEmpty else { return "No runs are waiting to be uploaded." }
        let header = ["RUN", "TASK", "SIZE", "STATE", "ATTEMPTS", "NEXT TRY", "LAST ERROR"]
        let rows = runs.map { run in
            [run.taskRunUUID.uuidString, run.taskIdentifier, UploadQueueListing.size(run.size), run.state, "\(run.attempts)",
             run.nextTry ?? "-", run.lastErrorCode.map { code in "\(code): \(run.lastError ?? "")" } ?? "-"]
        }
        // Every column but the last is padded to its widest cell.
        let widths = (0..<header.count - 1).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.enumerated().map { index, cell in
                index < widths.count ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
