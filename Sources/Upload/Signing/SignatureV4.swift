public import Foundation
public import CryptoCalls

/// AWS Signature Version 4, header-signed (docs/upload.md): the canonical request, the string to
/// sign and the `Authorization` header, checked against AWS's published test-suite vectors.
public struct SignatureV4: Sendable {
    /// A request as the signer sees it.
    public struct Request: Sendable {
        public var method: String
        /// The path as sent, already URI-encoded (S3 keys are encoded once, never normalized).
        public var encodedPath: String
        /// Query parameters, not encoded.
        public var query: [(name: String, value: String)]
        /// Every header to sign (`Host` and `X-Amz-Date` included).
        public var headers: [(name: String, value: String)]
        /// The payload's SHA-256 in hex, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        public init(method: String, encodedPath: String, query: [(name: String, value: String)] = [],
                    headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.encodedPath = encodedPath
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// What signing produced; the intermediate texts are kept for tests and error reports.
    public struct Signed: Sendable {
        public var canonicalRequest: String
        public var stringToSign: String
        public var signature: String
        public var authorization: String
    }

    /// The SHA-256 of an empty payload.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    public var credentials: S3Credentials
    public var region: String
    public var service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    public func sign(_ request: Request, date: AmzDate) throws(CryptoError) -> Signed {
        let headers = Self.canonicalHeaders(request.headers)
        let signedHeaders = headers.map(\.name).joined(separator: ";")
        let canonicalRequest = [
            request.method,
            request.encodedPath,
            Self.canonicalQuery(request.query),
            headers.map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders,
            request.payloadHash,
        ].joined(separator: "\n")
        let scope = "\(date.day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", date.timestamp, scope,
            LibCrypto.hex(try LibCrypto.digest(.sha256, Array(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        var key = try LibCrypto.hmacSHA256(key: Array("AWS4\(credentials.secretAccessKey)".utf8), Array(date.day.utf8))
        for part in [region, service, "aws4_request"] {
            key = try LibCrypto.hmacSHA256(key: key, Array(part.utf8))
        }
        let signature = LibCrypto.hex(try LibCrypto.hmacSHA256(key: key, Array(stringToSign.utf8)))
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signed(canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature, authorization: authorization)
    }

    /// Lower-case names, values trimmed with inner runs of spaces collapsed, sorted by name;
    /// repeated names joined with commas in their order.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for header in headers {
            let value = header.value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[header.name.lowercased(), default: []].append(value.trimming(" \t"))
        }
        return merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) }
    }

    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { (uriEncode($0.name), uriEncode($0.value)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// RFC 3986 encoding as Signature V4 wants it: unreserved characters kept, every other byte
    /// as `%XX` in upper case; `/` kept when `keepSlash` (object keys in paths).
    public static func uriEncode(_ text: String, keepSlash: Bool = false) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "/") where keepSlash:
                output.append("/")
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}
