import Foundation
import CryptoCalls

extension MultipartProgress {
    /// What the storage should say of the object these parts make, computed from the parts as
    /// sent, so that a HEAD confirms it (docs/upload.md, "Integrity, multipart and resuming").
    /// The composite SHA-256 checksum S3 computes for a multipart object: the SHA-256 of the
    /// parts' SHA-256 digests in part order (base64, without S3's `-<parts>` suffix); nil when a
    /// part has no recorded checksum.
    var compositeChecksum: String? {
        var digests: [UInt8] = []
        for part in parts.sorted(by: { $0.number < $1.number }) {
            guard let checksum = part.checksum, let raw = Data(base64Encoded: checksum), raw.count == 32 else { return nil }
            digests += raw
        }
        guard !parts.isEmpty, let digest = try? LibCrypto.digest(.sha256, digests) else { return nil }
        return LibCrypto.base64(digest)
    }

    /// The ETag S3 gives a multipart object without SSE-KMS or SSE-C: the MD5 of the parts' MD5s
    /// in part order, in hex, then `-<parts>`; nil when a part's ETag is not an MD5.
    var multipartETag: String? {
        var digests: [UInt8] = []
        for part in parts.sorted(by: { $0.number < $1.number }) {
            guard let raw = Self.bytes(hex: part.etag.trimming("\"")), raw.count == 16 else { return nil }
            digests += raw
        }
        guard !parts.isEmpty, let digest = try? LibCrypto.digest(.md5, digests) else { return nil }
        return "\(LibCrypto.hex(digest))-\(parts.count)"
    }

    /// Whether the parts recorded cover the whole archive, each once.
    var isComplete: Bool { Set(parts.map(\.number)) == Set(1...max(1, partCount)) && parts.count == partCount }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.lowercased().utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
