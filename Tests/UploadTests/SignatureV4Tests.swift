import CryptoCalls
import Foundation
import TestSupport
import Testing
@testable import Upload

/// Signature V4 against AWS's published test-suite vectors (Fixtures/sigv4/SOURCE.md).
@Suite("SignatureV4")
struct SignatureV4Tests {
    static let fixtures = PackagePaths.root.appendingPathComponent("Tests/UploadTests/Fixtures/sigv4")
    static let vectors = ["get-vanilla", "get-vanilla-query-order-key-case", "post-header-key-sort", "post-x-www-form-urlencoded"]

    struct Context: Decodable {
        struct Credentials: Decodable {
            var access_key_id: String
            var secret_access_key: String
        }
        var credentials: Credentials
        var region: String
        var service: String
        var sign_body: Bool
        var timestamp: String
    }

    func text(_ vector: String, _ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent("\(vector)/\(name)"), encoding: .utf8)
    }

    @Test("Each vector's canonical request, string to sign and signature", arguments: vectors)
    func vector(_ name: String) throws {
        let context = try JSONDecoder().decode(Context.self, from: Data(try text(name, "context.json").utf8))
        let request = try text(name, "request.txt")
        let (head, body) = request.firstRange(of: "\n\n").map { (String(request[..<$0.lowerBound]), String(request[$0.upperBound...])) } ?? (request, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ")
        let target = String(requestLine[1])
        let path = String(target.prefix { $0 != "?" })
        let query: [(name: String, value: String)] = target.contains("?")
            ? target.drop { $0 != "?" }.dropFirst().split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
            : []
        var headers: [(name: String, value: String)] = lines.filter { !$0.isEmpty }.map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        let date = try #require(ISO8601DateFormatter().date(from: context.timestamp))
        headers.append(("X-Amz-Date", AmzDate(date).timestamp))
        var payloadHash = SignatureV4.emptyPayloadHash
        if context.sign_body {
            payloadHash = LibCrypto.hex(try LibCrypto.digest(.sha256, Array(body.utf8)))
            headers.append(("X-Amz-Content-Sha256", payloadHash))
        }
        let signer = SignatureV4(credentials: S3Credentials(accessKeyID: context.credentials.access_key_id,
                                                            secretAccessKey: context.credentials.secret_access_key),
                                 region: context.region, service: context.service)
        let signed = try signer.sign(.init(method: String(requestLine[0]), encodedPath: path, query: query,
                                           headers: headers, payloadHash: payloadHash), date: AmzDate(date))
        #expect(signed.canonicalRequest == (try text(name, "header-canonical-request.txt")))
        #expect(signed.stringToSign == (try text(name, "header-string-to-sign.txt")))
        #expect(signed.signature == (try text(name, "header-signature.txt")).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(signed.authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders="))
    }

    @Test("URI encoding keeps unreserved characters and escapes every other byte in upper-case hex", arguments: [
        ("abc-._~XYZ09", false, "abc-._~XYZ09"),
        ("a b", false, "a%20b"),
        ("a/b", false, "a%2Fb"),
        ("a/b", true, "a/b"),
        ("é", false, "%C3%A9"),
        ("a+b=c", false, "a%2Bb%3Dc"),
    ])
    func encoding(_ input: String, _ keepSlash: Bool, _ expected: String) {
        #expect(SignatureV4.uriEncode(input, keepSlash: keepSlash) == expected)
    }

    @Test("Signature V4 dates in UTC", arguments: [
        (0.0, "19700101T000000Z"),
        (1_440_938_160.0, "20150830T123600Z"),
        (951_782_400.0, "20000229T000000Z"),
        (-1.0, "19691231T235959Z"),
    ])
    func dates(_ seconds: Double, _ expected: String) {
        #expect(AmzDate(Date(timeIntervalSince1970: seconds)).timestamp == expected)
    }

    @Test("Path-style and virtual-hosted addressing")
    func addressing() throws {
        let path = try #require(S3Location(endpoint: "http://127.0.0.1:9000", bucket: "study-data", region: "us-east-1", pathStyle: true))
        #expect(path.hostHeader == "127.0.0.1:9000")
        #expect(path.encodedPath(key: "s/d/2026-11-25/Tapping Task/X.zip") == "/study-data/s/d/2026-11-25/Tapping%20Task/X.zip")
        let virtual = try #require(S3Location(endpoint: "https://s3.eu-central-1.amazonaws.com", bucket: "study-data", region: "eu-central-1", pathStyle: false))
        #expect(virtual.hostHeader == "study-data.s3.eu-central-1.amazonaws.com")
        #expect(virtual.encodedPath(key: "a/b.zip") == "/a/b.zip")
        #expect(S3Location(endpoint: "s3.amazonaws.com", bucket: "b", region: "r", pathStyle: true) == nil)
    }
}
