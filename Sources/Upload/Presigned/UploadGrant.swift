public import Foundation

/// The study server's answer to a request for an upload (docs/upload.md, "The study server's
/// contract"): `{"id": "…", "url": "https://…", "expires": "2026-11-25T21:45:00Z"}`.
public struct UploadGrant: Sendable, Hashable {
    /// The server's name for this upload; completing it is `POST <presigned.url>/<id>/complete`.
    public var id: String
    /// The presigned URL the archive is PUT to.
    public var url: String
    /// When the URL stops working.
    public var expires: Date

    public init(id: String, url: String, expires: Date) {
        self.id = id
        self.url = url
        self.expires = expires
    }

    /// Reads the server's JSON answer; nil when a field is missing or `expires` is not ISO 8601.
    static func decode(_ body: [UInt8]) -> UploadGrant? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let id = object["id"] as? String, !id.isEmpty, let url = object["url"] as? String, !url.isEmpty,
              let expires = (object["expires"] as? String).flatMap(parseDate) else { return nil }
        return UploadGrant(id: id, url: url, expires: expires)
    }

    /// An ISO 8601 date and time with a zone (`2026-11-25T21:45:00Z`, fractional seconds allowed).
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
