import CLibCrypto
public import SystemPackage

/// Every call into OpenSSL's libcrypto, in one place: digests (SHA-256 for Signature V4, MD5 for
/// Content-MD5), HMAC-SHA256, base64, and CMS EnvelopedData to the study's certificate. A failed
/// call becomes `CryptoError` with OpenSSL's own message. Nothing else in the package touches
/// libcrypto.
public enum LibCrypto {
    /// A digest algorithm libcrypto computes.
    public enum Algorithm: Sendable {
        case sha256, md5

        var method: OpaquePointer? {
            switch self {
            case .sha256: EVP_sha256()
            case .md5: EVP_md5()
            }
        }

        var name: String {
            switch self {
            case .sha256: "SHA-256"
            case .md5: "MD5"
            }
        }
    }

    /// OpenSSL's queued error as text (and the queue emptied), or `fallback`.
    public static func lastError(_ fallback: String) -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return fallback }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A digest computed piece by piece (a file streamed from disk, a part of it).
    public final class Digest {
        private let context: OpaquePointer
        public let algorithm: Algorithm

        public init(_ algorithm: Algorithm) throws(CryptoError) {
            guard let context = EVP_MD_CTX_new() else {
                throw CryptoError(operation: "start a \(algorithm.name) digest", reason: LibCrypto.lastError("out of memory"))
            }
            self.context = context
            self.algorithm = algorithm
            guard EVP_DigestInit_ex(context, algorithm.method, nil) == 1 else {
                throw CryptoError(operation: "start a \(algorithm.name) digest", reason: LibCrypto.lastError("the algorithm is not available"))
            }
        }

        deinit { EVP_MD_CTX_free(context) }

        public func update(_ bytes: UnsafeRawBufferPointer) throws(CryptoError) {
            guard bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
                throw CryptoError(operation: "compute a \(algorithm.name) digest", reason: LibCrypto.lastError("the update failed"))
            }
        }

        public func update(_ bytes: [UInt8]) throws(CryptoError) {
            var failure: CryptoError?
            bytes.withUnsafeBytes { raw in
                do { try update(raw) } catch { failure = error as? CryptoError }
            }
            if let failure { throw failure }
        }

        public func finish() throws(CryptoError) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(context, &output, &length) == 1 else {
                throw CryptoError(operation: "finish a \(algorithm.name) digest", reason: LibCrypto.lastError("the final step failed"))
            }
            return Array(output.prefix(Int(length)))
        }
    }

    public static func digest(_ algorithm: Algorithm, _ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        let digest = try Digest(algorithm)
        try digest.update(bytes)
        return try digest.finish()
    }

    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                     messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &output, &length)
            }
        }
        guard result != nil else {
            throw CryptoError(operation: "compute an HMAC-SHA256", reason: lastError("HMAC failed"))
        }
        return Array(output.prefix(Int(length)))
    }

    public static func base64(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        var output = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let length = EVP_EncodeBlock(&output, bytes, Int32(bytes.count))
        return String(decoding: output.prefix(Int(max(length, 0))), as: UTF8.self)
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: CMS EnvelopedData

    /// An X.509 certificate read from a PEM file, with an RSA or EC public key (the kinds CMS
    /// EnvelopedData can encrypt to: key transport or key agreement).
    public final class Certificate {
        fileprivate let pointer: OpaquePointer

        public init(pemFile path: String) throws(CryptoError) {
            ERR_clear_error()
            guard let file = BIO_new_file(path, "r") else {
                throw CryptoError(operation: "open the certificate \(path)", reason: LibCrypto.lastError("it cannot be opened"),
                                  advice: Certificate.advice)
            }
            defer { BIO_free(file) }
            guard let certificate = PEM_read_bio_X509(file, nil, nil, nil) else {
                throw CryptoError(operation: "read the certificate \(path) as PEM", reason: LibCrypto.lastError("no certificate in it"),
                                  advice: Certificate.advice)
            }
            pointer = certificate
            let keyType = X509_get0_pubkey(certificate).map { EVP_PKEY_get_base_id($0) } ?? 0
            guard keyType == EVP_PKEY_RSA || keyType == EVP_PKEY_EC else {
                throw CryptoError(operation: "encrypt to the certificate \(path)",
                                  reason: "its public key is neither RSA nor EC (OpenSSL key type \(keyType))", advice: Certificate.advice)
            }
        }

        deinit { X509_free(pointer) }

        static let advice = "Set encryption.certificate to the study's X.509 certificate in PEM (-----BEGIN CERTIFICATE-----) with an RSA or EC (P-256) key, readable by activetask-upload (docs/upload.md, \"Encryption\"), then reload activetask-upload."

        /// The subject, one line (`/CN=…`), for the log.
        var subject: String {
            var text = [CChar](repeating: 0, count: 512)
            guard X509_NAME_oneline(X509_get_subject_name(pointer), &text, Int32(text.count)) != nil else { return "?" }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Encrypts everything `input` reads from its offset to its end as DER CMS EnvelopedData
    /// (AES-256-CBC content encryption, the key to `recipient`) into `output`, streaming: OpenSSL
    /// reads and writes through descriptor BIOs in small pieces (CMS_STREAM, BER with indefinite
    /// lengths), so memory does not grow with the input. The descriptors stay open; the caller
    /// checks that the whole input was read, fsyncs and closes. Blocks: run it on a dedicated thread.
    public static func envelope(_ input: FileDescriptor, to output: FileDescriptor, recipient: Certificate) throws(CryptoError) {
        ERR_clear_error()
        let operation = "encrypt the archive as CMS EnvelopedData"
        guard let source = BIO_new_fd(input.rawValue, BIO_NOCLOSE) else {
            throw CryptoError(operation: operation, reason: lastError("no file BIO"))
        }
        defer { BIO_free(source) }
        guard let descriptorSink = BIO_new_fd(output.rawValue, BIO_NOCLOSE) else {
            throw CryptoError(operation: operation, reason: lastError("no file BIO"))
        }
        // A buffer in front of the descriptor: OpenSSL writes in pieces of a few kilobytes.
        guard let buffer = BIO_new(BIO_f_buffer()) else {
            BIO_free(descriptorSink)
            throw CryptoError(operation: operation, reason: lastError("no buffer BIO"))
        }
        let sink = BIO_push(buffer, descriptorSink)
        defer { BIO_free_all(sink) }
        guard let recipients = activetask_x509_stack_new() else { throw CryptoError(operation: operation, reason: lastError("out of memory")) }
        defer { activetask_x509_stack_free(recipients) }
        guard activetask_x509_stack_push(recipients, recipient.pointer) > 0 else {
            throw CryptoError(operation: operation, reason: lastError("out of memory"))
        }
        // CMS_BINARY: the archive's bytes as they are (no MIME canonical line endings).
        let flags = Int32(CMS_BINARY | CMS_STREAM)
        guard let envelope = CMS_encrypt(recipients, source, EVP_aes_256_cbc(), UInt32(flags)) else {
            throw CryptoError(operation: operation, reason: lastError("CMS_encrypt failed"))
        }
        defer { CMS_ContentInfo_free(envelope) }
        guard i2d_CMS_bio_stream(sink, envelope, source, flags) == 1 else {
            throw CryptoError(operation: operation, reason: lastError("writing the encrypted stream failed"), advice: "Check that the disk holding the upload directory is not full.")
        }
        guard activetask_bio_flush(sink) == 1 else {
            throw CryptoError(operation: operation, reason: lastError("the last bytes could not be written"), advice: "Check that the disk holding the upload directory is not full.")
        }
    }
}
