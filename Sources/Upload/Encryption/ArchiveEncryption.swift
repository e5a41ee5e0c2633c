import SystemCalls
import SystemPackage
import CryptoCalls

/// Encrypts a run's archive to the study's certificate as CMS EnvelopedData (docs/upload.md,
/// "Encryption"): AES-256-CBC, the content key wrapped for an RSA or EC recipient, DER, so that
/// `openssl cms -decrypt -inform DER -recip study.pem -inkey study.key` gives the archive back
/// byte for byte. The encrypted copy streams from file to file; memory does not grow with the
/// archive.
public struct ArchiveEncryption: Sendable, Hashable {
    /// The object's content type when encrypted (RFC 8551).
    public static let contentType = "application/pkcs7-mime"
    /// Appended to the object key of an encrypted archive (`….zip.p7m`).
    public static let keySuffix = ".p7m"

    /// The study's X.509 certificate, PEM.
    public var certificateFile: String

    public init(certificateFile: String) {
        self.certificateFile = certificateFile
    }

    /// Writes the encrypted copy of `archive` to `destination` (a temporary file next to it, then
    /// `DurableFile.commit`: fsync'd, renamed into place, the directory fsync'd) and returns its size. A copy already at
    /// `destination` is kept: every encryption draws a fresh content key, so a multipart upload
    /// that resumes must send the parts of the very copy it started with. Blocks: run it on a
    /// dedicated thread.
    func encrypt(archive: String, to destination: String) throws(UploadFailure) -> Int64 {
        if let status = try? Syscalls.lstat(destination) { return Int64(status.st_size) }
        let certificate: LibCrypto.Certificate
        do { certificate = try LibCrypto.Certificate(pemFile: certificateFile) } catch {
            throw UploadFailure.local("CertificateUnusable", "The study's certificate cannot be used for encryption: \(error.description)")
        }
        let input: FileDescriptor
        do { input = try Syscalls.open(FilePath(archive), .readOnly, options: [.closeOnExec]) } catch {
            throw UploadFailure.local("ArchiveUnreadable", "The archive \(archive) cannot be read (\(error)); check that it exists and that activetask-upload is in the activetask group.")
        }
        defer { try? Syscalls.close(input, path: archive) }
        let temporary = destination + ".partial"
        let notWritten = { (cause: String) in
            UploadFailure.local("EncryptedCopyNotWritten", "The encrypted copy \(temporary) could not be written (\(cause)); check that the upload directory is writable by activetask-upload and the disk is not full.")
        }
        let output: FileDescriptor
        do {
            output = try Syscalls.open(FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite, .groupRead])
        } catch {
            throw notWritten("\(error)")
        }
        var closed = false
        defer {
            if !closed { try? Syscalls.close(output, path: temporary) }
        }
        do {
            try LibCrypto.envelope(input, to: output, recipient: certificate)
        } catch {
            try? Syscalls.unlink(temporary)
            throw UploadFailure.local("EncryptionFailed", error.description)
        }
        do {
            // OpenSSL takes a failed read for the end of its input: the whole archive must have been read.
            let read = try Syscalls.seek(input, offset: 0, from: .current, path: archive)
            let size = Int64(try Syscalls.fstat(input, path: archive).st_size)
            guard read == size else {
                try? Syscalls.unlink(temporary)
                throw UploadFailure.local("ArchiveUnreadable", "Only \(read) of the \(size) bytes of the archive \(archive) could be read for encryption; check the disk (dmesg) and the file.")
            }
            let encryptedSize = Int64(try Syscalls.fstat(output, path: temporary).st_size)
            closed = true
            try Syscalls.close(output, path: temporary)
            // Flushed, renamed into place, the directory flushed: SystemCalls' one crash-safe writer.
            try DurableFile.commit(temporary, to: destination)
            return encryptedSize
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            try? Syscalls.unlink(temporary)
            throw notWritten("\(error)")
        }
    }
}
