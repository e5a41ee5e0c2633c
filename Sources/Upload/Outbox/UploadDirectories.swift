import BlockingCalls
public import Foundation
import SystemCalls

/// The files of the upload side of the data directory: the daemon's `outbox/` (read only here)
/// and the uploader's own `uploads/` (multipart progress and receipts).
public struct UploadDirectories: Sendable {
    public let dataDirectory: URL

    public init(dataDirectory: URL) { self.dataDirectory = dataDirectory }

    public var outbox: URL { dataDirectory.appendingPathComponent("outbox") }
    public var uploads: URL { dataDirectory.appendingPathComponent("uploads") }

    public func receipt(for id: UUID) -> URL { uploads.appendingPathComponent("\(id.uuidString).uploaded.json") }
    func progress(for id: UUID) -> URL { uploads.appendingPathComponent("\(id.uuidString).multipart.json") }
    /// The encrypted copy of a run's archive while it is uploaded (the outbox is the daemon's, read-only here).
    func encrypted(for id: UUID) -> URL { uploads.appendingPathComponent("\(id.uuidString).zip.p7m") }
    public func archive(of entry: OutboxEntry) -> URL { dataDirectory.appendingPathComponent(entry.archive) }
    /// The uploader's queue as it last wrote it (`UploadQueueSnapshot`).
    public var queueSnapshot: URL { uploads.appendingPathComponent(UploadQueueSnapshot.fileName) }

    /// The queue as the uploader last wrote it; nil when it has not (yet) or the file is unreadable.
    public func readQueueSnapshot() -> UploadQueueSnapshot? { read(UploadQueueSnapshot.self, from: queueSnapshot) }

    /// The outbox entries without a receipt, and the names of entries that could not be read.
    public func pending() -> (entries: [OutboxEntry], unreadable: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []
        var entries: [OutboxEntry] = []
        var unreadable: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            guard let data = try? Data(contentsOf: outbox.appendingPathComponent(name)),
                  let entry = try? JSONDecoder().decode(OutboxEntry.self, from: data) else {
                unreadable.append(name)
                continue
            }
            if FileManager.default.fileExists(atPath: receipt(for: entry.taskRunUUID).path) { continue }
            entries.append(entry)
        }
        return (entries, unreadable)
    }

    /// The outbox entries whose receipt does not confirm the run's archive
    /// (`UploadReceipt.disagreement` against the entry's size and SHA-256 and the archive on
    /// disk, as the daemon's retention judges it), with the reason; for `activetaskctl uploads`.
    public func receiptsNotConfirming() -> [(entry: OutboxEntry, reason: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []
        return names.sorted().compactMap { name -> (entry: OutboxEntry, reason: String)? in
            guard name.hasSuffix(".json"), !name.hasPrefix("."), let entry = read(OutboxEntry.self, from: outbox.appendingPathComponent(name)),
                  FileManager.default.fileExists(atPath: receipt(for: entry.taskRunUUID).path) else { return nil }
            guard let stored = read(UploadReceipt.self, from: receipt(for: entry.taskRunUUID)) else {
                return (entry, "The upload receipt cannot be read.")
            }
            let onDisk = ((try? FileManager.default.attributesOfItem(atPath: archive(of: entry).path))?[.size] as? NSNumber)?.int64Value
            return stored.disagreement(archiveSize: onDisk, recordedSize: entry.size, recordedSHA256: entry.sha256).map { (entry, $0) }
        }
    }

    /// Removes the encrypted copies (finished or partial) of runs not in `keep`: a run deleted
    /// before its upload finished, or a copy whose removal after the receipt failed. Returns the
    /// names removed.
    func removeEncryptedCopies(except keep: Set<UUID>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
        var removed: [String] = []
        for name in names where name.hasSuffix(".zip.p7m") || name.hasSuffix(".zip.p7m.partial") {
            guard let id = UUID(uuidString: String(name.prefix(36))), !keep.contains(id) else { continue }
            if (try? FileManager.default.removeItem(at: uploads.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
    }

    /// The leftovers of runs whose outbox entry is gone, from one listing of each folder: their
    /// receipts are removed here (the daemon removes a run's entry only when it removes the
    /// run, after the receipt let it go, docs/upload.md, and it may not write here, so these
    /// files are the uploader's to clear); their multipart progress files, but for the runs in
    /// `busy`, are returned as `departed`, since each upload is aborted before its file goes
    /// (`ArchiveUploader.abandonDeparted`), so that no part stays billed. Nothing when the
    /// outbox cannot be listed.
    func removeLeftoversOfRemovedRuns(except busy: Set<UUID>) -> (removed: [String], departed: [URL]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: outbox.path) else { return ([], []) }
        let inOutbox = Set(entries.compactMap { UUID(uuidString: String($0.prefix(36))) })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
        var removed: [String] = [], departed: [URL] = []
        for name in names {
            guard let id = UUID(uuidString: String(name.prefix(36))), !inOutbox.contains(id) else { continue }
            if name.hasSuffix(".uploaded.json") {
                if (try? FileManager.default.removeItem(at: uploads.appendingPathComponent(name))) != nil { removed.append(name) }
            } else if name.hasSuffix(".multipart.json"), !busy.contains(id) {
                departed.append(uploads.appendingPathComponent(name))
            }
        }
        return (removed, departed)
    }

    /// Writes `value` as JSON to `url` atomically and durably (SystemCalls' `DurableFile`: a
    /// receipt that a power cut could leave empty would let retention judge a run by nothing).
    func write<Value: Encodable>(_ value: Value, to url: URL) throws {
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try DurableFile.write(Array(try encoder.encode(value)), to: url.path)
    }

    func read<Value: Decodable>(_ type: Value.Type, from url: URL) -> Value? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
