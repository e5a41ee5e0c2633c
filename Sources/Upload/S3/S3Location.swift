public import Foundation

/// Where objects go: the endpoint, the bucket, path-style or virtual-hosted addressing and
/// the region the requests are signed for.
public struct S3Location: Sendable, Hashable {
    public var scheme: String
    public var host: String
    public var port: Int?
    public var bucket: String
    public var region: String
    /// `https://host/bucket/key` when true, `https://bucket.host/key` when false.
    public var pathStyle: Bool

    /// `endpoint` is a URL such as `https://s3.eu-central-1.amazonaws.com` or
    /// `http://127.0.0.1:9000`; nil for a URL without a scheme or host.
    public init?(endpoint: String, bucket: String, region: String, pathStyle: Bool) {
        guard let components = URLComponents(string: endpoint), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, !bucket.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle
    }

    /// The `Host` header: the bucket joins the host name unless path-style.
    public var hostHeader: String {
        let name = pathStyle ? host : "\(bucket).\(host)"
        return port.map { "\(name):\($0)" } ?? name
    }

    /// The encoded path of `key` (each byte outside the unreserved set and `/` escaped once).
    /// The bucket's own path, for bucket-level calls (ListMultipartUploads): `/bucket` path-style
    /// (no trailing slash: S3 and moto sign the path as boto3 sends it), `/` virtual-hosted.
    public var encodedBucketPath: String { pathStyle ? "/\(SignatureV4.uriEncode(bucket))" : "/" }

    public func encodedPath(key: String) -> String {
        let encodedKey = SignatureV4.uriEncode(key, keepSlash: true)
        return pathStyle ? "/\(SignatureV4.uriEncode(bucket))/\(encodedKey)" : "/\(encodedKey)"
    }

    /// The full URL of `key` with `query` (already canonical: sorted and encoded).
    func url(encodedPath: String, canonicalQuery: String) -> String {
        "\(scheme)://\(hostHeader)\(encodedPath)" + (canonicalQuery.isEmpty ? "" : "?\(canonicalQuery)")
    }
}
