public import Foundation

/// The UI's static files, read once at start into memory: a request is answered by an exact
/// look-up of its path, so `..`, absolute paths, encoded slashes and directories have nothing to
/// match and get 404; a symlink that leads out of the asset folder and hidden files are never
/// read. There is no directory listing. (The files are a few tens of kilobytes.)
public struct AssetCatalog: Sendable {
    /// One file: its bytes and content type.
    public struct Asset: Sendable {
        public var data: Data
        public var contentType: String
    }

    /// Files by URL path (`/index.html`, `/js/app.js`).
    public private(set) var files: [String: Asset] = [:]

    /// Content types by extension; files of other types are not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "json": "application/json", "png": "image/png", "svg": "image/svg+xml", "ico": "image/x-icon",
        "woff2": "font/woff2", "txt": "text/plain; charset=utf-8",
    ]

    /// Reads every servable file under `directory`.
    public init(directory: URL) throws(WebRelayError) {
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: root + "/index.html") else { throw .noAssets(directory.path) }
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let type = Self.contentTypes[(relative as NSString).pathExtension.lowercased()] else { continue }
            let resolved = URL(fileURLWithPath: root).appendingPathComponent(relative).resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/"), let data = FileManager.default.contents(atPath: resolved) else { continue }
            files["/" + relative] = Asset(data: data, contentType: type)
        }
    }

    /// The file for a request's path (without its query); `/` is `/index.html`.
    public func asset(forPath path: String) -> Asset? {
        files[path == "/" ? "/index.html" : path]
    }

    /// The request target's path: up to `?` or `#`.
    static func path(ofTarget target: String) -> String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }
}
