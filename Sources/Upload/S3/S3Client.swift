import BlockingCalls
public import Foundation

/// The S3 calls an upload needs (PutObject, CreateMultipartUpload, UploadPart, ListParts,
/// CompleteMultipartUpload), each signed with Signature V4 and sent by libcurl on a dedicated
/// thread. Bodies stream from the archive on disk; `Content-MD5` is sent and the returned ETag
/// checked, so a corrupted transfer is refused by the storage or caught here.
public struct S3Client: Sendable {
    /// A part the storage holds for a multipart upload.
    public struct Part: Sendable, Hashable, Codable {
        public var number: Int
        public var etag: String
        public var size: Int64
    }

    public var location: S3Location
    public var signer: SignatureV4
    public var transfer: TransferSettings
    /// The signing clock (tests may pin it).
    public var now: @Sendable () -> Date

    public init(location: S3Location, credentials: S3Credentials, transfer: TransferSettings = TransferSettings(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.location = location
        self.signer = SignatureV4(credentials: credentials, region: location.region)
        self.transfer = transfer
        self.now = now
    }

    /// PutObject of the whole file; returns its ETag after checking it equals the MD5.
    public func putObject(key: String, file: String, size: Int64, md5: [UInt8], contentType: String = "application/zip") async throws(UploadFailure) -> String {
        let response = try await send("PUT", key: key, headers: [("Content-MD5", LibCrypto.base64(md5)), ("Content-Type", contentType)],
                                      body: .file(path: file, offset: 0, length: size))
        return try Self.checkedETag(response, md5: md5, what: "the object \(key)")
    }

    public func createMultipartUpload(key: String, contentType: String = "application/zip") async throws(UploadFailure) -> String {
        let response = try await send("POST", key: key, query: [("uploads", "")],
                                      headers: [("Content-Type", contentType)])
        guard let uploadID = XMLFields.value("UploadId", in: response.text[...]), !uploadID.isEmpty else {
            throw UploadFailure(kind: .transient, code: "MalformedAnswer", message: "The storage started a multipart upload of \(key) but named no UploadId; it is tried again.")
        }
        return uploadID
    }

    public func uploadPart(key: String, uploadID: String, number: Int, file: String, offset: Int64, length: Int64,
                           md5: [UInt8]) async throws(UploadFailure) -> Part {
        let response = try await send("PUT", key: key, query: [("partNumber", "\(number)"), ("uploadId", uploadID)],
                                      headers: [("Content-MD5", LibCrypto.base64(md5))],
                                      body: .file(path: file, offset: offset, length: length))
        return Part(number: number, etag: try Self.checkedETag(response, md5: md5, what: "part \(number) of \(key)"), size: length)
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
            let text = response.text[...]
            for element in XMLFields.elements("Part", in: text) {
                guard let number = XMLFields.value("PartNumber", in: element).flatMap(Int.init),
                      let etag = XMLFields.value("ETag", in: element),
                      let size = XMLFields.value("Size", in: element).flatMap(Int64.init) else { continue }
                parts.append(Part(number: number, etag: etag, size: size))
            }
            guard XMLFields.value("IsTruncated", in: text) == "true",
                  let next = XMLFields.value("NextPartNumberMarker", in: text) else { return parts }
            marker = next
        }
    }

    /// CompleteMultipartUpload; returns the object's ETag. S3 may answer 200 with an error in
    /// the body, which is sorted like any other error.
    public func completeMultipartUpload(key: String, uploadID: String, parts: [Part]) async throws(UploadFailure) -> String {
        let document = "<CompleteMultipartUpload>"
            + parts.sorted { $0.number < $1.number }.map {
                "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(XMLFields.escape($0.etag))</ETag></Part>"
            }.joined()
            + "</CompleteMultipartUpload>"
        let response = try await send("POST", key: key, query: [("uploadId", uploadID)],
                                      headers: [("Content-Type", "application/xml")], body: .bytes(Array(document.utf8)))
        if let code = XMLFields.value("Code", in: response.text[...]) {
            throw UploadFailure.classify(status: 500, code: code, message: XMLFields.value("Message", in: response.text[...]), retryAfter: nil)
        }
        return XMLFields.value("ETag", in: response.text[...]) ?? response.headers["etag"] ?? ""
    }

    /// The object's ETag, or nil when there is no object under `key`.
    public func headObject(key: String) async throws(UploadFailure) -> String? {
        do {
            return try await send("HEAD", key: key).headers["etag"]
        } catch where error.code == "HTTP 404" || error.code == "NoSuchKey" {
            return nil
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
        let date = AmzDate(now())
        let encodedPath = location.encodedPath(key: key)
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
            let text = response.text[...]
            throw UploadFailure.classify(status: response.status, code: XMLFields.value("Code", in: text),
                                         message: XMLFields.value("Message", in: text), retryAfter: response.headers["retry-after"])
        }
        return response
    }
}
