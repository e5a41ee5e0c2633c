import Foundation

/// A URL as it may be logged or stored: scheme, host (and port) and path only (docs/upload.md,
/// "Secrets"). A presigned URL's query is its signature: whoever reads it can replay the PUT
/// until it expires, so it never reaches a log, `lastError` or queue.json.
enum LoggableURL {
    static func of(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            // Not a URL we can take apart: keep what comes before any query or fragment.
            return String(url.prefix { $0 != "?" && $0 != "#" })
        }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)\(components.percentEncodedPath)"
    }
}
