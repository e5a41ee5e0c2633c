/// A `resourceTransformer`: the file a `transform` step loads, relative to the including file.
public struct ResourceTransformer: Codable, Sendable, Hashable {
    /// The file name (with or without `.json`), relative to the directory of the including file.
    public var resourceName: String
    /// An extension to append when `resourceName` has none (SageResearch's `rawFileExtension`).
    public var rawFileExtension: String?

    public init(resourceName: String, rawFileExtension: String? = nil) {
        self.resourceName = resourceName
        self.rawFileExtension = rawFileExtension
    }

    /// The file name to look for: `resourceName`, plus `.json` (or `rawFileExtension`) when it
    /// has no extension.
    public var fileName: String {
        let lastComponent = resourceName.split(separator: "/").last.map(String.init) ?? resourceName
        if lastComponent.contains(".") { return resourceName }
        return "\(resourceName).\(rawFileExtension ?? "json")"
    }
}
