import CryptoCalls
import Foundation
import Testing
@testable import Upload

/// How the uploader reads the store's answers (docs/upload.md, "Integrity, multipart and
/// resuming", "Secrets"): a CompleteMultipartUpload body counts only when whole; a HEAD's
/// composite checksum; what a set of parts should make; the storage's `Date`; a URL as it may be
/// logged.
@Suite("Store answers")
struct StoreAnswerTests {
    static let result = #"<?xml version="1.0" encoding="UTF-8"?>\#n<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Location>http://b.s3/k</Location><Bucket>b</Bucket><Key>k</Key><ETag>&quot;3858f62230ac3c915f300c664312c11f-9&quot;</ETag><ChecksumSHA256>abc=-9</ChecksumSHA256></CompleteMultipartUploadResult>"#

    @Test("A Complete answer counts only as a whole CompleteMultipartUploadResult", arguments: [
        (result, CompleteAnswer.completed(etag: "\"3858f62230ac3c915f300c664312c11f-9\"", checksumSHA256: "abc=-9")),
        (#"<CompleteMultipartUploadResult><ETag>"e-2"</ETag></CompleteMultipartUploadResult>"#, .completed(etag: "\"e-2\"", checksumSHA256: nil)),
        // moto 5.2.1's root element, as it answers.
        (#"<?xml version="1.0" encoding="utf-8"?>\#n<CompleteMultipartUploadResponse xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Location>http://bucketx.s3.amazonaws.com/m</Location><Bucket>bucketx</Bucket><Key>m</Key><ETag>"cb8d7289925309a05b2db09b7709c264-1"</ETag></CompleteMultipartUploadResponse>"#,
         .completed(etag: "\"cb8d7289925309a05b2db09b7709c264-1\"", checksumSHA256: nil)),
        ("", .unreadable("the body is empty")),
        ("  \r\n\t ", .unreadable("the body is only white space")),
        (#"<Error><Code>InternalError</Code><Message>Try again.</Message></Error>"#, .error(code: "InternalError", message: "Try again.")),
    ])
    func complete(_ body: String, _ expected: CompleteAnswer) {
        #expect(CompleteAnswer.parse(Array(body.utf8)) == expected)
    }

    @Test("A truncated, foreign or ETag-less Complete answer is unreadable", arguments: [
        String(result.prefix(80)), String(result.dropLast(5)), String(result.prefix(result.count / 2)),
        "<CompleteMultipartUploadResult><Bucket>b</Bucket></CompleteMultipartUploadResult>",
        "<ListPartsResult><ETag>x</ETag></ListPartsResult>", "<Error><Message>no code</Message></Error>", "not xml at all",
    ])
    func unreadable(_ body: String) {
        guard case .unreadable = CompleteAnswer.parse(Array(body.utf8)) else {
            Issue.record("\(body) was read as \(CompleteAnswer.parse(Array(body.utf8)))")
            return
        }
    }

    @Test("A HEAD's checksum without S3's -<parts> suffix", arguments: [
        ("eQQp9oHRifPbKLStOLQSjA23uf2X2sgOrPKX81Xg2Vs=-2", "eQQp9oHRifPbKLStOLQSjA23uf2X2sgOrPKX81Xg2Vs="),
        ("eQQp9oHRifPbKLStOLQSjA23uf2X2sgOrPKX81Xg2Vs=", "eQQp9oHRifPbKLStOLQSjA23uf2X2sgOrPKX81Xg2Vs="),
        ("a+b/c=", "a+b/c="),
    ])
    func checksumValue(_ header: String, _ expected: String) {
        #expect(ObjectHead(size: 1, etag: "", checksumSHA256: header).checksumValue == expected)
    }

    @Test("What recorded parts make: S3's composite SHA-256 and multipart ETag")
    func expected() throws {
        // Two parts' bytes; the expected values computed the way S3 documents them, with
        // Python's hashlib (base64(sha256(sha256(p1) + sha256(p2))), md5(md5(p1) + md5(p2))-2).
        let parts: [[UInt8]] = [Array("first part".utf8), Array("second".utf8)]
        let recorded = try parts.enumerated().map { index, bytes in
            S3Client.Part(number: index + 1, etag: "\"\(LibCrypto.hex(try LibCrypto.digest(.md5, bytes)))\"", size: Int64(bytes.count),
                          checksum: LibCrypto.base64(try LibCrypto.digest(.sha256, bytes)))
        }
        let progress = MultipartProgress(key: "k", uploadID: "u", size: 16, partSize: 10, parts: recorded.reversed())
        #expect(progress.compositeChecksum == "uuadpAct5xACtSaoxUcMYjjiBHFXWk36g7Y1st+cM/I=")
        #expect(progress.multipartETag == "93f26da1291790e1134809a03511cd15-2")
        #expect(progress.isComplete)
        var old = progress
        old.parts[0].checksum = nil
        #expect(old.compositeChecksum == nil, "a progress file without checksums gives none")
        old.parts.removeLast()
        #expect(!old.isComplete)
    }

    @Test("The storage's Date sets the clock skew", arguments: [
        ("Sun, 29 Nov 2026 06:40:47 GMT", Date(timeIntervalSince1970: 1_795_930_847), 3600.0),
        ("Sun, 29 Nov 2026 05:40:47 GMT", Date(timeIntervalSince1970: 1_795_930_847), 0.0),
        ("Sun, 29 Nov 2026 05:30:47 GMT", Date(timeIntervalSince1970: 1_795_930_847), -600.0),
    ])
    func skew(_ header: String, _ local: Date, _ seconds: Double) {
        let skew = ClockSkew()
        #expect(skew.correct(serverDate: header, at: local) == seconds)
        #expect(skew.now(local) == local.addingTimeInterval(seconds))
        #expect(skew.correct(serverDate: "yesterday", at: local) == nil)
        #expect(skew.seconds == seconds, "an unreadable Date changes nothing")
    }

    @Test("A URL is logged as scheme, host and path: never its query (a presigned URL's signature)", arguments: [
        ("http://127.0.0.1:9000/bucket/key.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc", "http://127.0.0.1:9000/bucket/key.zip"),
        ("https://b.s3.amazonaws.com/a%20b/c.zip?AWSAccessKeyId=AK&Signature=x&Expires=1#f", "https://b.s3.amazonaws.com/a%20b/c.zip"),
        ("https://user:secret@study.example.org/v1/uploads", "https://study.example.org/v1/uploads"),
        ("not a url?Signature=x", "not a url"),
    ])
    func loggable(_ url: String, _ expected: String) {
        #expect(LoggableURL.of(url) == expected)
    }
}
