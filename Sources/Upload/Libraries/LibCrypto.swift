import CLibCrypto

/// Every call into OpenSSL's libcrypto, in one place: digests (SHA-256 for Signature V4, MD5 for
/// Content-MD5), HMAC-SHA256 and base64. A failed call becomes `CryptoError` with OpenSSL's own
/// message. Nothing else in the package touches libcrypto.
enum LibCrypto {
    /// A digest algorithm libcrypto computes.
    enum Algorithm: Sendable {
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
    static func lastError(_ fallback: String) -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return fallback }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A digest computed piece by piece (a file streamed from disk, a part of it).
    final class Digest {
        private let context: OpaquePointer
        let algorithm: Algorithm

        init(_ algorithm: Algorithm) throws(CryptoError) {
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

        func update(_ bytes: UnsafeRawBufferPointer) throws(CryptoError) {
            guard bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
                throw CryptoError(operation: "compute a \(algorithm.name) digest", reason: LibCrypto.lastError("the update failed"))
            }
        }

        func update(_ bytes: [UInt8]) throws(CryptoError) {
            var failure: CryptoError?
            bytes.withUnsafeBytes { raw in
                do { try update(raw) } catch { failure = error as? CryptoError }
            }
            if let failure { throw failure }
        }

        func finish() throws(CryptoError) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(context, &output, &length) == 1 else {
                throw CryptoError(operation: "finish a \(algorithm.name) digest", reason: LibCrypto.lastError("the final step failed"))
            }
            return Array(output.prefix(Int(length)))
        }
    }

    static func digest(_ algorithm: Algorithm, _ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        let digest = try Digest(algorithm)
        try digest.update(bytes)
        return try digest.finish()
    }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) throws(CryptoError) -> [UInt8] {
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

    static func base64(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        var output = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let length = EVP_EncodeBlock(&output, bytes, Int32(bytes.count))
        return String(decoding: output.prefix(Int(max(length, 0))), as: UTF8.self)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
