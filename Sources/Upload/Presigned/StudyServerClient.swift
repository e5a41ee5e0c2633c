import BlockingCalls
public import Foundation
import CryptoCalls

/// The calls to a study server that hands out presigned URLs (docs/upload.md, "The study
/// server's contract"), and the PUT to such a URL: each sent by libcurl on a dedicated thread.
/// The device holds a bearer token, never storage keys.
public struct StudyServerClient: Sendable {
    /// Where upload requests are POSTed (`https://study.example.org/v1/uploads`).
    public var url: String
    /// The device's bearer token.
    public var token: String
    public var transfer: TransferSettings

    public init(url: String, token: String, transfer: TransferSettings = TransferSettings()) {
        self.url = url
        self.token = token
        self.transfer = transfer
    }

    /// POST `{name, contentLength, contentMd5, contentType}`; the server's `{id, url, expires}`.
    public func requestUpload(name: String, contentLength: Int64, md5: [UInt8], contentType: String) async throws(UploadFailure) -> UploadGrant {
        let document: [String: Any] = ["name": name, "contentLength": contentLength, "contentMd5": LibCrypto.base64(md5), "contentType": contentType]
        let body = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])).map { Array($0) } ?? []
        let response = try await send(HTTPRequest(method: "POST", url: url, headers: jsonHeaders, body: .bytes(body)), what: "ask the study server for an upload URL")
        guard let grant = UploadGrant.decode(response.body) else {
            throw UploadFailure(kind: .transient, code: "MalformedAnswer", message: "The study server's answer to an upload request is not {id, url, expires} with an ISO 8601 expires (\(response.body.count) bytes, not quoted: it may hold a signed URL); it is tried again.")
        }
        return grant
    }

    /// PUT the file to the grant's URL with `Content-MD5` and `Content-Type` (the headers the
    /// server signed); returns the storage's ETag after checking it equals the MD5.
    public func put(_ grant: UploadGrant, file: String, size: Int64, md5: [UInt8], contentType: String) async throws(UploadFailure) -> String {
        guard let host = URLComponents(string: grant.url)?.host, !host.isEmpty else {
            throw UploadFailure(kind: .held, code: "MalformedAnswer", message: "The study server handed out the upload URL \(LoggableURL.of(grant.url)), which is not a URL; check the server.")
        }
        let request = HTTPRequest(method: "PUT", url: grant.url, headers: [("Content-MD5", LibCrypto.base64(md5)), ("Content-Type", contentType)],
                                  body: .file(path: file, offset: 0, length: size))
        let response = try await perform(request)
        guard (200..<300).contains(response.status) else {
            let error = S3XMLElement.parse(response.body).root
            throw UploadFailure.classify(status: response.status, code: error?.value("Code"),
                                         message: error?.value("Message"), retryAfter: response.headers["retry-after"])
        }
        return try S3Client.checkedETag(response, md5: md5, what: "the upload \(grant.id)")
    }

    /// POST `<url>/<id>/complete`.
    public func complete(_ id: String) async throws(UploadFailure) {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let request = HTTPRequest(method: "POST", url: "\(base)/\(SignatureV4.uriEncode(id))/complete", headers: jsonHeaders, body: .none)
        _ = try await send(request, what: "tell the study server that upload \(id) is complete")
    }

    private var jsonHeaders: [(name: String, value: String)] {
        [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Accept", "application/json")]
    }

    /// Sends a request to the study server; a non-2xx answer becomes a sorted failure (401 and
    /// 403: the token, held).
    private func send(_ request: HTTPRequest, what: String) async throws(UploadFailure) -> HTTPResponse {
        let response = try await perform(request)
        guard (200..<300).contains(response.status) else { throw Self.failure(status: response.status, response: response, what: what) }
        return response
    }

    private func perform(_ request: HTTPRequest) async throws(UploadFailure) -> HTTPResponse {
        let transfer = transfer
        do {
            return try await BlockingCall.run("study server \(request.method.lowercased())") { try LibCurl.perform(request, settings: transfer) }
        } catch let error as CurlError {
            throw UploadFailure.transfer(error)
        } catch {
            throw UploadFailure(kind: .transient, code: "Transfer", message: "\(error)")
        }
    }

    /// Sorts the study server's error answer; its `message` (JSON) or text is quoted.
    static func failure(status: Int, response: HTTPResponse, what: String) -> UploadFailure {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let said = (object?["message"] as? String) ?? String(response.text.prefix(200)).trimming(" \r\n\t")
        let quoted = said.isEmpty ? "" : ": \(said)"
        switch status {
        case 401, 403:
            return UploadFailure(kind: .held, code: "HTTP \(status)",
                                 message: "The study server refused the device's token when asked to \(what) (HTTP \(status)\(quoted)): check presigned.tokenFile (or the presigned-token credential), then reload activetask-upload (systemctl reload activetask-upload).",
                                 httpStatus: status)
        default:
            var failure = UploadFailure.classify(status: status, code: nil, message: "The study server could not \(what)\(quoted)", retryAfter: response.headers["retry-after"])
            if failure.kind == .held {
                failure.message = "The study server could not \(what) (HTTP \(status)\(quoted)): check presigned.url and the server, then reload activetask-upload."
            }
            return failure
        }
    }
}
