import BlockingCalls
public import Foundation
public import Logging
import SystemCalls
import SystemPackage
import CryptoCalls

/// Uploads one run's archive, encrypted first when configured. To S3: a single PutObject up to
/// `multipartThreshold`, a multipart upload above it whose progress is kept on disk so a restart
/// resumes at the next part. Through a study server: one PUT to a presigned URL
/// (`PresignedUpload`). Everything streams from the file on disk; memory does not grow with its
/// size.
public struct ArchiveUploader: Sendable {
    public var target: UploadTarget
    public var keyTemplate: ObjectKeyTemplate
    public var study: String
    public var device: String
    public var directories: UploadDirectories
    /// Archives larger than this go as multipart uploads.
    public var multipartThreshold: Int64
    /// The size of each part but the last (S3 needs at least 5 MiB).
    public var partSize: Int64
    /// How many parts of one multipart upload are sent at once.
    public var partsInParallel: Int
    /// CMS encryption to the study's certificate; nil to upload archives as they are.
    public var encryption: ArchiveEncryption?
    public var logger: Logger
    /// Where the bytes sent so far are reported, for the service's status line.
    public let progress = UploadProgress()

    public static let minimumPartSize: Int64 = 5 << 20
    /// The largest object one PUT may carry (S3's limit), for the presigned target.
    public static let maximumSinglePut: Int64 = 5 << 30

    public init(target: UploadTarget, keyTemplate: ObjectKeyTemplate, study: String, device: String, directories: UploadDirectories,
                multipartThreshold: Int64 = 8 << 20, partSize: Int64 = 8 << 20, partsInParallel: Int = 4,
                encryption: ArchiveEncryption? = nil, logger: Logger) {
        self.target = target
        self.keyTemplate = keyTemplate
        self.study = study
        self.device = device
        self.directories = directories
        self.multipartThreshold = multipartThreshold
        self.partSize = max(partSize, Self.minimumPartSize)
        self.partsInParallel = max(1, partsInParallel)
        self.encryption = encryption
        self.logger = logger
    }

    /// The run's object key: the template's, with `.p7m` appended when archives are encrypted.
    public func key(for entry: OutboxEntry) -> String {
        keyTemplate.key(for: entry, study: study, device: device) + (encryption == nil ? "" : ArchiveEncryption.keySuffix)
    }

    /// What the storage confirmed it holds: the object's ETag and, when it computed one, its
    /// SHA-256 checksum.
    struct Confirmed: Sendable {
        var etag: String
        var checksumSHA256: String?
    }

    /// Uploads the run's archive (encrypted first when configured), confirms that the storage
    /// holds it, and only then writes its receipt (docs/upload.md: no receipt, no deletion).
    public func upload(_ entry: OutboxEntry) async throws(UploadFailure) -> UploadReceipt {
        defer { progress.end(entry.taskRunUUID) }
        var file = directories.archive(of: entry).path
        let size: Int64
        let contentType: String
        let archiveSize = try await archiveSize(file)
        // The archive's own SHA-256 for the receipt, which the daemon compares with the one it
        // recorded (docs/upload.md, "No receipt, no deletion"): the object's checksum cannot
        // stand in for it (a composite for multipart, the ciphertext's when encrypted).
        let archiveDigests = try await digest(file, offset: 0, length: archiveSize)
        if let encryption {
            let encrypted = try await encrypt(entry, with: encryption)
            file = encrypted.path
            size = encrypted.size
            contentType = ArchiveEncryption.contentType
        } else {
            size = archiveSize
            contentType = "application/zip"
        }
        let key = key(for: entry)
        progress.report(entry.taskRunUUID, sent: 0, total: size)
        let confirmed: Confirmed
        switch target {
        case .s3(let client) where size <= multipartThreshold:
            // Unencrypted, the file sent is the archive, whose digests are in hand.
            let digests = encryption == nil ? archiveDigests : try await digest(file, offset: 0, length: size)
            let etag = try await client.putObject(key: key, file: file, size: size, md5: digests.md5, sha256: digests.sha256, contentType: contentType)
            confirmed = try await confirm(client, key: key, size: size, checksum: LibCrypto.base64(digests.sha256),
                                          etag: LibCrypto.hex(digests.md5), answered: etag)
        case .s3(let client):
            confirmed = try await multipart(entry, client: client, archive: file, key: key, size: size, contentType: contentType)
        case .presigned(let server):
            // No storage key, so no HEAD: the storage's own answer to the PUT (an ETag equal to
            // the MD5 sent, checked) and the study server's complete confirm it.
            let md5 = encryption == nil ? archiveDigests.md5 : try await digest(file, offset: 0, length: size).md5
            confirmed = Confirmed(etag: try await presigned(server, file: file, name: key, size: size, md5: md5, contentType: contentType))
        }
        let receipt = UploadReceipt(taskRunUUID: entry.taskRunUUID.uuidString, key: key, etag: confirmed.etag, size: size,
                                    uploadedDate: AmzDate.iso8601(Date()), checksumSHA256: confirmed.checksumSHA256, archiveSize: archiveSize,
                                    archiveSHA256: LibCrypto.hex(archiveDigests.sha256))
        do {
            let directories = directories
            try await BlockingCall.run("upload receipt") { try directories.write(receipt, to: directories.receipt(for: entry.taskRunUUID)) }
        } catch {
            throw UploadFailure.local("ReceiptNotWritten", "The archive was uploaded but its receipt \(directories.receipt(for: entry.taskRunUUID).path) could not be written (\(error.localizedDescription)); check that \(directories.uploads.path) is writable by activetask-upload.")
        }
        if encryption != nil {
            let copy = directories.encrypted(for: entry.taskRunUUID)
            _ = try? await BlockingCall.run("encrypted copy") { try FileManager.default.removeItem(at: copy) }
        }
        return receipt
    }

    /// The encrypted copy of the run's archive in the upload directory (made on a dedicated
    /// thread, or the one an earlier attempt left) and its size.
    private func encrypt(_ entry: OutboxEntry, with encryption: ArchiveEncryption) async throws(UploadFailure) -> (path: String, size: Int64) {
        let archive = directories.archive(of: entry).path
        let copy = directories.encrypted(for: entry.taskRunUUID).path
        let uploads = directories.uploads
        do {
            let size = try await BlockingCall.run("archive encryption") {
                do {
                    try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
                } catch {
                    throw UploadFailure.local("EncryptedCopyNotWritten", "The upload directory \(uploads.path) cannot be created (\(error.localizedDescription)); check that it is writable by activetask-upload.")
                }
                return try encryption.encrypt(archive: archive, to: copy)
            }
            return (copy, size)
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure.local("EncryptionFailed", "The archive \(archive) could not be encrypted: \(error)")
        }
    }

    /// One PUT through the study server, driven by `PresignedUpload` (new URLs for expired ones).
    private func presigned(_ server: StudyServerClient, file: String, name: String, size: Int64, md5: [UInt8],
                           contentType: String) async throws(UploadFailure) -> String {
        guard size <= Self.maximumSinglePut else {
            throw UploadFailure.local("TooLarge", "The archive \(file) has \(size) bytes, more than the 5 GiB one PUT to a presigned URL can carry; upload it with target \"s3\" or split the task.")
        }
        var flow = PresignedUpload()
        var action = flow.handle(.started)
        while true {
            switch action {
            case .requestURL:
                do {
                    let grant = try await server.requestUpload(name: name, contentLength: size, md5: md5, contentType: contentType)
                    action = flow.handle(.granted(grant, now: Date()))
                } catch {
                    action = flow.handle(.requestFailed(error))
                }
            case .put(let grant):
                if flow.urlsRequested > 1 { logger.info("Uploading with a new URL; the last one had expired.", metadata: ["id": "\(grant.id)"]) }
                do {
                    action = flow.handle(.stored(etag: try await server.put(grant, file: file, size: size, md5: md5, contentType: contentType)))
                } catch {
                    action = flow.handle(.putFailed(error))
                }
            case .complete(let id):
                do {
                    try await server.complete(id)
                    action = flow.handle(.completed)
                } catch {
                    action = flow.handle(.completeFailed(error))
                }
            case .finished(let etag):
                return etag
            case .failed(let failure):
                throw failure
            }
        }
    }

    /// Confirms that the storage holds `size` bytes under `key` that are the ones sent: a HEAD
    /// whose size matches and whose checksum (computed by the storage, when it gives one) or
    /// else ETag equals what was sent. A HEAD answered 403 (a key without `s3:GetObject`) leaves
    /// the storage's own answer to the upload (`answered`: an ETag checked against the MD5, or a
    /// parsed CompleteMultipartUploadResult) as the confirmation; 404 or any difference is a
    /// transient failure, and the upload is made again.
    private func confirm(_ client: S3Client, key: String, size: Int64, checksum: String?, etag expected: String?,
                         answered: String?) async throws(UploadFailure) -> Confirmed {
        func notConfirmed(_ why: String) -> UploadFailure {
            UploadFailure(kind: .transient, code: "NotConfirmed", message: "The storage does not confirm the object \(key): \(why); it is uploaded again.")
        }
        switch try await client.headObject(key: key) {
        case .found(let head):
            guard head.size == size else { throw notConfirmed("it holds \(head.size) bytes, not the \(size) sent") }
            if let stored = head.checksumValue, let checksum {
                guard stored == checksum else { throw notConfirmed("its SHA-256 is \(stored), not \(checksum) of the bytes sent") }
            } else if let expected {
                guard head.etag.trimming("\"").lowercased() == expected else { throw notConfirmed("its ETag is \(head.etag), not \(expected) of the bytes sent") }
            }
            return Confirmed(etag: head.etag, checksumSHA256: head.checksumSHA256)
        case .notThere(let status):
            if status == 403, let answered, !answered.isEmpty {
                logger.info("The storage refuses HEAD (the key has no s3:GetObject): its own answer to the upload confirms the object.", metadata: ["key": "\(key)"])
                return Confirmed(etag: answered)
            }
            throw notConfirmed("a HEAD of it answers HTTP \(status)")
        }
    }

    /// Aborts a multipart upload given up on, so that its parts are not billed; a failure is
    /// logged (the documented lifecycle rule removes what is left). Returns whether the storage
    /// no longer holds the upload.
    @discardableResult
    private func abandon(_ progress: MultipartProgress, client: S3Client, because reason: String) async -> Bool {
        do {
            try await client.abortMultipartUpload(key: progress.key, uploadID: progress.uploadID)
            logger.info("Aborted a multipart upload given up on.", metadata: ["key": "\(progress.key)", "reason": "\(reason)"])
            return true
        } catch {
            logger.warning("A multipart upload given up on could not be aborted; the bucket's lifecycle rule removes its parts.",
                           metadata: ["key": "\(progress.key)", "reason": "\(reason)", "error": "\(error)"])
            return false
        }
    }

    /// Aborts the multipart upload a run left behind when it left the outbox (the daemon deleted
    /// the run before its upload finished), then removes its progress file at `url`. Returns
    /// whether the file was removed: it stays, to be tried at the next scan, while the storage
    /// cannot abort the upload; a file that cannot be read, or the presigned target, has nothing
    /// to abort.
    public func abandonDeparted(progressAt url: URL) async -> Bool {
        let directories = directories
        let saved = try? await BlockingCall.run("upload progress") { directories.read(MultipartProgress.self, from: url) }
        if case .s3(let client) = target, let saved = saved ?? nil {
            guard await abandon(saved, client: client, because: "its run left the outbox before the upload finished") else { return false }
        }
        return (try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: url) }) != nil
    }

    /// Whether the file's bytes are still those of every part recorded (an encrypted copy made
    /// again has a new content key: the same size, other bytes).
    private func partsMatchFile(_ progress: MultipartProgress, archive: String) async throws(UploadFailure) -> Bool {
        for part in progress.parts {
            let (offset, length) = progress.range(ofPart: part.number)
            let digests = try await digest(archive, offset: offset, length: length)
            guard part.etag.trimming("\"").lowercased() == LibCrypto.hex(digests.md5),
                  part.checksum.map({ $0 == LibCrypto.base64(digests.sha256) }) ?? true else { return false }
        }
        return true
    }

    private func multipart(_ entry: OutboxEntry, client: S3Client, archive: String, key: String, size: Int64, contentType: String) async throws(UploadFailure) -> Confirmed {
        let progressURL = directories.progress(for: entry.taskRunUUID)
        var progress: MultipartProgress
        let directories = directories
        let saved = try? await BlockingCall.run("upload progress") { directories.read(MultipartProgress.self, from: progressURL) }
        if let saved, saved.key == key, saved.size == size, try await partsMatchFile(saved, archive: archive) {
            progress = saved
            if let held = try await client.listParts(key: key, uploadID: saved.uploadID) {
                // The storage's word counts: a part saved here but not there is sent again.
                let stored = Dictionary(held.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
                progress.parts = saved.parts.filter { part in
                    guard let held = stored[part.number], held.etag == part.etag else { return false }
                    return held.checksum == nil || part.checksum == nil || held.checksum == part.checksum
                }
                logger.info("Resuming a multipart upload.", metadata: ["taskRunUUID": "\(entry.taskRunUUID)", "parts": "\(progress.parts.count) of \(progress.partCount)"])
            } else if saved.isComplete, case .found(let head) = try await client.headObject(key: key), head.size == size,
                      head.checksumValue.map({ $0 == saved.compositeChecksum }) ?? (head.etag.trimming("\"").lowercased() == saved.multipartETag) {
                // The upload was completed before its answer or the receipt could be written:
                // the object is the one these parts make.
                _ = try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: progressURL) }
                await abortOrphans(of: key, client: client)
                return Confirmed(etag: head.etag, checksumSHA256: head.checksumSHA256)
            } else {
                // Not there (404, or 403 without s3:GetObject) or not these bytes: upload again.
                logger.info("A multipart upload the storage no longer knows starts again.", metadata: ["taskRunUUID": "\(entry.taskRunUUID)"])
                progress = try await startMultipart(client, key: key, size: size, contentType: contentType, at: progressURL)
            }
        } else {
            if let saved {
                // Another key or size (the configuration changed), or the file's bytes are no
                // longer those of the parts sent (an encrypted copy made again): completing would
                // mix bytes, so the upload starts again whole.
                logger.warning("The saved multipart upload does not match the file any more; it starts again whole.",
                               metadata: ["taskRunUUID": "\(entry.taskRunUUID)"])
                await abandon(saved, client: client, because: "the file no longer matches its parts")
            }
            progress = try await startMultipart(client, key: key, size: size, contentType: contentType, at: progressURL)
        }
        let done = Set(progress.parts.map(\.number))
        self.progress.report(entry.taskRunUUID, sent: progress.confirmedBytes, total: size)
        var missing = (1...progress.partCount).filter { !done.contains($0) }.makeIterator()
        let uploadID = progress.uploadID, layout = progress
        // Up to `partsInParallel` parts in flight, each digested and sent by its own child task
        // (the blocking work on dedicated threads); the progress file is written here, one
        // finished part at a time, so a kill loses at most the parts in flight.
        do {
            try await withThrowingTaskGroup(of: S3Client.Part.self) { group in
                func startNext() -> Bool {
                    guard let number = missing.next() else { return false }
                    group.addTask {
                        let (offset, length) = layout.range(ofPart: number)
                        let digests = try await digest(archive, offset: offset, length: length)
                        return try await client.uploadPart(key: key, uploadID: uploadID, number: number, file: archive,
                                                           offset: offset, length: length, md5: digests.md5, sha256: digests.sha256)
                    }
                    return true
                }
                for _ in 0..<partsInParallel where !startNext() { break }
                while let part = try await group.next() {
                    progress.parts.append(part)
                    try await save(progress, at: progressURL)
                    self.progress.report(entry.taskRunUUID, sent: progress.confirmedBytes, total: size)
                    _ = startNext()
                }
            }
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure(kind: .transient, code: "PartFailed", message: "A part of the multipart upload failed: \(error); it is tried again later.")
        }
        let completed = try await client.completeMultipartUpload(key: key, uploadID: progress.uploadID, parts: progress.parts)
        let confirmed: Confirmed
        do {
            confirmed = try await confirm(client, key: key, size: size, checksum: progress.compositeChecksum,
                                          etag: progress.multipartETag, answered: completed.etag)
        } catch where error.code == "NotConfirmed" {
            // The upload is completed (or gone) but the object is not these bytes: the next
            // attempt starts a new one.
            _ = try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: progressURL) }
            throw error
        }
        _ = try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: progressURL) }
        await abortOrphans(of: key, client: client)
        return confirmed
    }

    /// Aborts every unfinished multipart upload of `key` once its object is confirmed: one
    /// whose CreateMultipartUpload took effect but whose answer was lost (a kill, a cut
    /// connection) is known to no progress file. Best effort: a key that may not list them
    /// leaves them to the bucket's lifecycle rule (docs/upload.md).
    private func abortOrphans(of key: String, client: S3Client) async {
        guard let uploads = try? await client.multipartUploads(of: key) else { return }
        for uploadID in uploads {
            await abandon(MultipartProgress(key: key, uploadID: uploadID, size: 0, partSize: partSize, parts: []), client: client,
                          because: "an upload of the same key whose start was never answered")
        }
    }

    private func startMultipart(_ client: S3Client, key: String, size: Int64, contentType: String, at url: URL) async throws(UploadFailure) -> MultipartProgress {
        guard let partSize = MultipartProgress.partSize(forArchiveOf: size, preferred: partSize) else {
            throw UploadFailure.local("ArchiveTooLarge", "The archive is \(size) bytes, more than the 10 000 parts of 5 GiB an S3 multipart upload can hold; it stays on the device.")
        }
        let uploadID = try await client.createMultipartUpload(key: key, contentType: contentType)
        let progress = MultipartProgress(key: key, uploadID: uploadID, size: size, partSize: partSize, parts: [])
        try await save(progress, at: url)
        return progress
    }

    /// Writes the progress file (a temporary file renamed over it) on a dedicated thread.
    private func save(_ progress: MultipartProgress, at url: URL) async throws(UploadFailure) {
        let directories = directories
        do { try await BlockingCall.run("upload progress") { try directories.write(progress, to: url) } } catch {
            throw UploadFailure.local("ProgressNotWritten", "The multipart progress \(url.path) could not be written (\(error.localizedDescription)); check that \(directories.uploads.path) is writable and the disk is not full.")
        }
    }

    private func archiveSize(_ path: String) async throws(UploadFailure) -> Int64 {
        do {
            return try await BlockingCall.run("archive size") {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                return (attributes[.size] as? NSNumber)?.int64Value ?? 0
            }
        } catch {
            throw UploadFailure.local("ArchiveUnreadable", "The archive \(path) cannot be read (\(error.localizedDescription)); check that it exists and that activetask-upload is in the activetask group.")
        }
    }

    /// The MD5 (for `Content-MD5` and the ETag) and SHA-256 (for `x-amz-checksum-sha256`) of
    /// `length` bytes of the file from `offset`, read once in 128 KiB pieces on a dedicated
    /// thread (several parts are digested at once: small pieces keep the memory flat).
    private func digest(_ path: String, offset: Int64, length: Int64) async throws(UploadFailure) -> (md5: [UInt8], sha256: [UInt8]) {
        do {
            return try await BlockingCall.run("archive digest") {
                let md5 = try LibCrypto.Digest(.md5)
                let sha256 = try LibCrypto.Digest(.sha256)
                let descriptor = try Syscalls.open(FilePath(path), .readOnly, options: [.closeOnExec])
                defer { try? Syscalls.close(descriptor, path: path) }
                var buffer = [UInt8](repeating: 0, count: 128 << 10)
                var done: Int64 = 0
                while done < length {
                    let want = Int(min(Int64(buffer.count), length - done))
                    let count = try buffer.withUnsafeMutableBytes { raw in
                        try Syscalls.read(descriptor, fromAbsoluteOffset: offset + done,
                                          into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]), path: path)
                    }
                    guard count > 0 else { throw UploadFailure.local("ArchiveShort", "The archive \(path) is shorter than its recorded size; it changed after the run finished.") }
                    try buffer.withUnsafeBytes { raw in
                        try md5.update(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
                        try sha256.update(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
                    }
                    done += Int64(count)
                }
                return (try md5.finish(), try sha256.finish())
            }
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure.local("ArchiveUnreadable", "The archive \(path) could not be read: \(error)")
        }
    }
}
