import Foundation
import CryptoCalls
@testable import Session
import Testing
import TestSupport

/// The archive's SHA-256 (libcrypto's, through `LibCrypto.Digest`, and `RunArchive.sha256(of:)`)
/// against FIPS 180-4's examples and coreutils' `sha256sum` (docs/runs.md, "Uploads").
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static let vectors: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test("FIPS 180-4's examples, whole and fed in pieces of every awkward size", arguments: [1, 3, 55, 56, 63, 64, 65, 1000, 1 << 20])
    func vectors(piece: Int) throws {
        // The million bytes in pieces under 1000 would only make the test slow.
        for (message, digest) in Self.vectors where message.utf8.count < 1000 || piece >= 1000 {
            let bytes = Array(message.utf8)
            let sha = try LibCrypto.Digest(.sha256)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                try sha.update(Array(bytes[offset..<end]))
                offset = end
            }
            #expect(Self.hex(try sha.finish()) == digest, "\(message.prefix(20))… in pieces of \(piece)")
        }
    }

    @Test("A file's SHA-256 read in 128 KiB pieces equals sha256sum's")
    func fileAgainstSha256sum() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        var generator = SystemRandomNumberGenerator()
        // Not a multiple of the read size nor of the block size.
        try Data((0..<(300 << 10) + 17).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
        #expect(try RunArchive.sha256(of: url) == CommandRunner.sha256sum(url))
    }

    @Test("An archive that cannot be read is a RunStoreError that names it")
    func unreadable() {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).zip")
        #expect {
            try RunArchive.sha256(of: url)
        } throws: { error in
            "\(error)".contains(url.path)
        }
    }
}
