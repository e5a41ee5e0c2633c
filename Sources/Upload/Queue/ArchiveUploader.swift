import BlockingCalls
public import Foundation
public import Logging
import SystemCalls
import SystemPackage

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

    /// Uploads the run's archive (encrypted first when configured) and writes its receipt.
    public func upload(_ entry: OutboxEntry) async throws(UploadFailure) -> UploadReceipt {
        defer { progress.end(entry.taskRunUUID) }
        var file = directories.archive(of: entry).path
        let size: Int64
        let contentType: String
        if let encryption {
            let encrypted = try await encrypt(entry, with: encryption)
            file = encrypted.path
            size = encrypted.size
            contentType = ArchiveEncryption.contentType
        } else {
            size = try await archiveSize(file)
            contentType = "application/zip"
        }
        let key = key(for: entry)
        progress.report(entry.taskRunUUID, sent: 0, total: size)
        let etag: String
        switch target {
        case .s3(let client) where size <= multipartThreshold:
            let md5 = try await digest(file, offset: 0, length: size)
            etag = try await client.putObject(key: key, file: file, size: size, md5: md5, contentType: contentType)
        case .s3(let client):
            etag = try await multipart(entry, client: client, archive: file, key: key, size: size, contentType: contentType)
        case .presigned(let server):
            etag = try await presigned(server, file: file, name: key, size: size, contentType: contentType)
        }
        let receipt = UploadReceipt(taskRunUUID: entry.taskRunUUID.uuidString, key: key, etag: etag, size: size,
                                    uploadedDate: AmzDate.iso8601(Date()))
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
    private func presigned(_ server: StudyServerClient, file: String, name: String, size: Int64, contentType: String) async throws(UploadFailure) -> String {
        guard size <= Self.maximumSinglePut else {
            throw UploadFailure.local("TooLarge", "The archive \(file) has \(size) bytes, more than the 5 GiB one PUT to a presigned URL can carry; upload it with target \"s3\" or split the task.")
        }
        let md5 = try await digest(file, offset: 0, length: size)
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

    private func multipart(_ entry: OutboxEntry, client: S3Client, archive: String, key: String, size: Int64, contentType: String) async throws(UploadFailure) -> String {
        let progressURL = directories.progress(for: entry.taskRunUUID)
        var progress: MultipartProgress
        let directories = directories
        let saved = try? await BlockingCall.run("upload progress") { directories.read(MultipartProgress.self, from: progressURL) }
        if let saved, saved.key == key, saved.size == size {
            progress = saved
            if let held = try await client.listParts(key: key, uploadID: saved.uploadID) {
                // The storage's word counts: a part saved here but not there is sent again.
                let stored = Dictionary(held.map { ($0.number, $0) }, uniquingKeysWith: { $1 })
                progress.parts = saved.parts.filter { stored[$0.number]?.etag == $0.etag }
                logger.info("Resuming a multipart upload.", metadata: ["taskRunUUID": "\(entry.taskRunUUID)", "parts": "\(progress.parts.count) of \(progress.partCount)"])
            } else if let etag = try await client.headObject(key: key) {
                // The upload was completed before the receipt could be written.
                _ = try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: progressURL) }
                return etag
            } else {
                progress = try await startMultipart(client, key: key, size: size, contentType: contentType, at: progressURL)
            }
        } else {
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
                        let md5 = try await digest(archive, offset: offset, length: length)
                        return try await client.uploadPart(key: key, uploadID: uploadID, number: number, file: archive,
                                                           offset: offset, length: length, md5: md5)
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
        let etag = try await client.completeMultipartUpload(key: key, uploadID: progress.uploadID, parts: progress.parts)
        _ = try? await BlockingCall.run("upload progress") { try FileManager.default.removeItem(at: progressURL) }
        return etag
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

    /// The MD5 of `length` bytes of the file from `offset`, read in 128 KiB pieces on a dedicated
    /// thread (several parts are digested at once: small pieces keep the memory flat).
    private func digest(_ path: String, offset: Int64, length: Int64) async throws(UploadFailure) -> [UInt8] {
        do {
            return try await BlockingCall.run("archive digest") {
                let md5 = try LibCrypto.Digest(.md5)
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
                    try buffer.withUnsafeBytes { raw in try md5.update(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
                    done += Int64(count)
                }
                return try md5.finish()
            }
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure.local("ArchiveUnreadable", "The archive \(path) could not be read: \(error)")
        }
    }
}
