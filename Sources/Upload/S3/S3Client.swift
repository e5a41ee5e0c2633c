import BlockingCalls
public import Foundation
public import Logging
import CryptoCalls

/// The S3 calls an upload needs (PutObject, CreateMultipartUpload, UploadPart, ListParts,
/// CompleteMultipartUpload), each signed with Signature V4 and sent by libcurl on a dedicated
/// thread. Bodies stream from the archive on disk; `Content-MD5` and `x-amz-checksum-sha256` are
/// sent and the returned ETag checked, so a corrupted transfer is refused by the storage or
/// caught here. A request refused as `RequestTimeTooSkewed` is signed again with the clock
/// corrected from the storage's `Date` (`ClockSkew`).
public struct S3Client: Sendable {
    /// A part the storage holds for a multipart upload.
    public struct Part: Sendable, Hashable, Codable {
        public var number: Int
        public var etag: String
        public var size: Int64
        /// The part's SHA-256 (base64), as sent and as the storage computed it; nil in progress
        /// files written before checksums were sent.
        public var checksum: String?

        public init(number: Int, etag: String, size: Int64, checksum: String? = nil) {
            self.number = number
            self.etag = etag
            self.size = size
            self.checksum = checksum
        }
    }

    public var location: S3Location
    public var signer: SignatureV4
    public var transfer: TransferSettings
    /// The signing clock (tests may pin it).
    public var now: @Sendable () -> Date
    /// The storage's clock against the device's, learnt from a `RequestTimeTooSkewed` answer.
    public let skew: ClockSkew
    public var logger: Logger

    public init(location: S3Location, credentials: S3Credentials, transfer: TransferSettings = TransferSettings(),
                now: @escaping @Sendable () -> Date = { Date() }, skew: ClockSkew = ClockSkew(),
                logger: Logger = Logger(label: "activetask-upload")) {
        self.location = location
        self.signer = SignatureV4(credentials: credentials, region: location.region)
        self.transfer = transfer
        self.now = now
        self.skew = skew
        self.logger = logger
    }

    /// PutObject of the whole file with `Content-MD5` and `x-amz-checksum-sha256`; returns its
    /// ETag after checking it equals the MD5 (and the checksum, when the storage echoes one).
    public func putObject(key: String, file: String, size: Int64, md5: [UInt8], sha256: [UInt8],
                          contentType: String = "application/zip") async throws(UploadFailure) -> String {
        let response = try await send("PUT", key: key, headers: [("Content-MD5", LibCrypto.base64(md5)), ("Content-Type", contentType),
                                                                ("x-amz-checksum-sha256", LibCrypto.base64(sha256))],
                                      body: .file(path: file, offset: 0, length: size))
        try Self.checkEchoedChecksum(response, sha256: sha256, what: "the object \(key)")
        return try Self.checkedETag(response, md5: md5, what: "the object \(key)")
    }

    /// Starts a multipart upload whose parts carry SHA-256 checksums (so that the storage
    /// computes the object's composite checksum, given on HEAD).
    public func createMultipartUpload(key: String, contentType: String = "application/zip") async throws(UploadFailure) -> String {
        let response = try await send("POST", key: key, query: [("uploads", "")],
                                      headers: [("Content-Type", contentType), ("x-amz-checksum-algorithm", "SHA256")])
        guard let uploadID = S3XMLElement.parse(response.body).root?.value("UploadId"), !uploadID.isEmpty else {
            throw UploadFailure(kind: .transient, code: "MalformedAnswer", message: "The storage started a multipart upload of \(key) but named no UploadId; it is tried again.")
        }
        return uploadID
    }

    public func uploadPart(key: String, uploadID: String, number: Int, file: String, offset: Int64, length: Int64,
                           md5: [UInt8], sha256: [UInt8]) async throws(UploadFailure) -> Part {
        let response = try await send("PUT", key: key, query: [("partNumber", "\(number)"), ("uploadId", uploadID)],
                                      headers: [("Content-MD5", LibCrypto.base64(md5)), ("x-amz-checksum-sha256", LibCrypto.base64(sha256))],
                                      body: .file(path: file, offset: offset, length: length))
        try Self.checkEchoedChecksum(response, sha256: sha256, what: "part \(number) of \(key)")
        return Part(number: number, etag: try Self.checkedETag(response, md5: md5, what: "part \(number) of \(key)"), size: length,
                    checksum: LibCrypto.base64(sha256))
    }

    /// AbortMultipartUpload: the storage drops the parts of an upload given up on (they would be
    /// billed until a lifecycle rule removed them). An upload it no longer knows is fine.
    public func abortMultipartUpload(key: String, uploadID: String) async throws(UploadFailure) {
        do {
            _ = try await send("DELETE", key: key, query: [("uploadId", uploadID)])
        } catch where error.code == "NoSuchUpload" || error.httpStatus == 404 {
            return
        }
    }

    /// The parts the storage holds; nil when it no longer knows the upload (completed or
    /// aborted: `NoSuchUpload`).
    public func listParts(key: String, uploadID: String) async throws(UploadFailure) -> [Part]? {
        var parts: [Part] = []
        var marker = "0"
        while true {
            let response: HTTPResponse
            do {
                response = try await send("GET", key: key, query: [("uploadId", uploadID), ("part-number-marker", marker)])
            } catch where error.code == "NoSuchUpload" {
                return nil
            }
            let page = try Self.document(response, what: "the parts of \(key)")
            for element in page.children(named: "Part") {
                guard let number = element.value("PartNumber").flatMap(Int.init),
                      let etag = element.value("ETag"),
                      let size = element.value("Size").flatMap(Int64.init) else { continue }
                parts.append(Part(number: number, etag: etag, size: size,
                                  checksum: element.value("ChecksumSHA256").flatMap { $0.isEmpty ? nil : $0 }))
            }
            guard page.value("IsTruncated") == "true",
                  let next = page.value("NextPartNumberMarker") else { return parts }
            marker = next
        }
    }

    /// The UploadIds of the unfinished multipart uploads of exactly `key` (ListMultipartUploads
    /// followed page by page); nil when the key may not list them (403: the documented policy's
    /// `s3:ListBucketMultipartUploads` left out). The prefix asked for is the key's first path
    /// segment (`{study}` by default), not the whole key: moto 5.2.1 refuses the signature of a
    /// query value holding an encoded `/` (boto3's own too), and the answer is filtered by key.
    public func multipartUploads(of key: String) async throws(UploadFailure) -> [String]? {
        var found: [String] = []
        var keyMarker = "", uploadMarker = ""
        let prefix = String(key.prefix { $0 != "/" })
        while true {
            var query = [("uploads", ""), ("prefix", prefix)]
            if !keyMarker.isEmpty { query += [("key-marker", keyMarker), ("upload-id-marker", uploadMarker)] }
            let response: HTTPResponse
            do {
                response = try await send("GET", key: "", query: query)
            } catch where error.httpStatus == 403 {
                return nil
            }
            let page = try Self.document(response, what: "the unfinished uploads of \(key)")
            for upload in page.children(named: "Upload") where upload.value("Key") == key {
                if let id = upload.value("UploadId") { found.append(id) }
            }
            guard page.value("IsTruncated") == "true", let next = page.value("NextKeyMarker") else { return found }
            keyMarker = next
            uploadMarker = page.value("NextUploadIdMarker") ?? ""
        }
    }

    /// A listing page's XML document; a page that is not one whole document (a connection cut
    /// mid-body) is a transient failure, never read as a shorter list.
    static func document(_ response: HTTPResponse, what: String) throws(UploadFailure) -> S3XMLElement {
        let (root, reason) = S3XMLElement.parse(response.body)
        guard let root else {
            throw UploadFailure(kind: .transient, code: "MalformedAnswer", message: "The storage's list of \(what) could not be read (\(reason)); it is asked again.")
        }
        return root
    }

    /// CompleteMultipartUpload; returns the object's ETag and the composite checksum when the
    /// answer names one. S3 sends `200` before the object is assembled and the result (or an
    /// `<Error>`) after: only a whole `CompleteMultipartUploadResult` counts (`CompleteAnswer`);
    /// an error, or a body cut short, is sorted like any other failure and retried.
    public func completeMultipartUpload(key: String, uploadID: String, parts: [Part]) async throws(UploadFailure) -> (etag: String, checksumSHA256: String?) {
        let document = "<CompleteMultipartUpload>"
            + parts.sorted { $0.number < $1.number }.map { part in
                "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(S3XMLElement.escape(part.etag))</ETag>"
                    + (part.checksum.map { "<ChecksumSHA256>\(S3XMLElement.escape($0))</ChecksumSHA256>" } ?? "") + "</Part>"
            }.joined()
            + "</CompleteMultipartUpload>"
        let response = try await send("POST", key: key, query: [("uploadId", uploadID)],
                                      headers: [("Content-Type", "application/xml")], body: .bytes(Array(document.utf8)))
        switch CompleteAnswer.parse(response.body) {
        case .completed(let etag, let checksum):
            return (etag, checksum)
        case .error(let code, let message):
            throw UploadFailure.classify(status: 500, code: code, message: message, retryAfter: nil)
        case .unreadable(let reason):
            throw UploadFailure(kind: .transient, code: "IncompleteAnswer",
                                message: "The storage answered CompleteMultipartUpload of \(key) with HTTP \(response.status) but \(reason), so the object is not known to be assembled; it is asked again.",
                                httpStatus: response.status)
        }
    }

    /// HEAD of the object, asking for its checksum: its size, ETag and checksum, or `notThere`
    /// for 404 and 403 (S3 answers 403 to a key without `s3:GetObject`, which the documented
    /// least-privilege policy leaves out).
    public func headObject(key: String) async throws(UploadFailure) -> ObjectHead.Answer {
        do throws(UploadFailure) {
            let response = try await send("HEAD", key: key, headers: [("x-amz-checksum-mode", "ENABLED")])
            guard let size = response.headers["content-length"].flatMap({ Int64($0.trimming(" ")) }) else {
                throw UploadFailure(kind: .transient, code: "MalformedAnswer", message: "The storage answered a HEAD of \(key) without a Content-Length; it is asked again.")
            }
            return .found(ObjectHead(size: size, etag: response.headers["etag"] ?? "", checksumSHA256: response.headers["x-amz-checksum-sha256"]))
        } catch where [403, 404].contains(error.httpStatus ?? 0) || ["NoSuchKey", "AccessDenied"].contains(error.code) {
            return .notThere(status: error.httpStatus ?? 404)
        }
    }

    /// A checksum the storage echoes must be the one sent (S3 refuses a body that does not
    /// match; a store that echoes another computed it over other bytes).
    static func checkEchoedChecksum(_ response: HTTPResponse, sha256: [UInt8], what: String) throws(UploadFailure) {
        guard let echoed = response.headers["x-amz-checksum-sha256"], !echoed.isEmpty else { return }
        let sent = LibCrypto.base64(sha256)
        guard echoed == sent else {
            throw UploadFailure(kind: .transient, code: "ChecksumMismatch",
                                message: "The storage stored \(what) with SHA-256 \(echoed), not \(sent) that was sent; it is sent again.")
        }
    }

    /// The response's ETag, checked against the MD5 of the body that was sent.
    static func checkedETag(_ response: HTTPResponse, md5: [UInt8], what: String) throws(UploadFailure) -> String {
        let etag = response.headers["etag"] ?? ""
        let expected = LibCrypto.hex(md5)
        guard etag.trimming("\"").lowercased() == expected else {
            throw UploadFailure(kind: .transient, code: "ETagMismatch",
                                message: "The storage stored \(what) with ETag \(etag), not the MD5 \(expected) that was sent; it is sent again.")
        }
        return etag
    }

    /// Signs and sends one request; a non-2xx answer becomes a sorted `UploadFailure`.
    func send(_ method: String, key: String, query: [(String, String)] = [], headers extra: [(String, String)] = [],
              body: HTTPRequest.Body = .none) async throws(UploadFailure) -> HTTPResponse {
        do {
            return try await sendOnce(method, key: key, query: query, headers: extra, body: body)
        } catch where error.code == "RequestTimeTooSkewed" {
            // The storage's `Date` says how far off the device's clock is: sign again with it
            // (once per request; a clock still refused is held with the advice to set it).
            guard let serverDate = error.serverDate, let seconds = skew.correct(serverDate: serverDate, at: now()) else { throw error }
            logger.warning("The storage refused a request as RequestTimeTooSkewed: requests are now signed with the storage's clock. Set the device's clock (systemd-timesyncd).",
                           metadata: ["clockSkewSeconds": "\(Int(seconds.rounded()))"])
            return try await sendOnce(method, key: key, query: query, headers: extra, body: body)
        }
    }

    private func sendOnce(_ method: String, key: String, query: [(String, String)], headers extra: [(String, String)],
                          body: HTTPRequest.Body) async throws(UploadFailure) -> HTTPResponse {
        let date = AmzDate(skew.now(now()))
        // An empty key is a call on the bucket itself.
        let encodedPath = key.isEmpty ? location.encodedBucketPath : location.encodedPath(key: key)
        var headers: [(name: String, value: String)] = [
            ("Host", location.hostHeader),
            ("x-amz-date", date.timestamp),
            ("x-amz-content-sha256", body.length == 0 ? SignatureV4.emptyPayloadHash : SignatureV4.unsignedPayload),
        ]
        headers += extra.map { (name: $0.0, value: $0.1) }
        if case .bytes(let bytes) = body {
            headers[2].value = (try? LibCrypto.hex(LibCrypto.digest(.sha256, bytes))) ?? SignatureV4.unsignedPayload
        }
        let query = query.map { (name: $0.0, value: $0.1) }
        let signed: SignatureV4.Signed
        do {
            signed = try signer.sign(.init(method: method, encodedPath: encodedPath, query: query, headers: headers,
                                           payloadHash: headers[2].value), date: date)
        } catch {
            throw UploadFailure.local("Signing", error.description)
        }
        let request = HTTPRequest(method: method, url: location.url(encodedPath: encodedPath, canonicalQuery: SignatureV4.canonicalQuery(query)),
                                  headers: headers + [("Authorization", signed.authorization)], body: body)
        let transfer = transfer
        let response: HTTPResponse
        do {
            response = try await BlockingCall.run("s3 \(method.lowercased())") { try LibCurl.perform(request, settings: transfer) }
        } catch let error as CurlError {
            throw UploadFailure.transfer(error)
        } catch {
            throw UploadFailure(kind: .transient, code: "Transfer", message: "\(error)")
        }
        guard (200..<300).contains(response.status) else {
            let error = S3XMLElement.parse(response.body).root
            var failure = UploadFailure.classify(status: response.status, code: error?.value("Code"),
                                                 message: error?.value("Message"), retryAfter: response.headers["retry-after"])
            failure.serverDate = response.headers["date"]
            throw failure
        }
        return response
    }
}
