/// The result of `tasks.image`: the image file's bytes in base64 and its content type.
public struct TaskImage: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    /// The file found, relative to the task directory.
    public var file: String
    /// `image/png`, `image/jpeg`, `image/gif`, `image/svg+xml` or `image/webp`.
    public var contentType: String
    /// The file's bytes, base64 (RFC 4648, with padding).
    public var base64: String

    public init(file: String, contentType: String, base64: String) {
        self.file = file
        self.contentType = contentType
        self.base64 = base64
    }

    public static var schema: JSONSchema {
        .object([
            .init("file", .described("The file found, relative to the task directory.", .string())),
            .init("contentType", .string(enumeration: ["image/png", "image/jpeg", "image/gif", "image/svg+xml", "image/webp"])),
            .init("base64", .described("The file's bytes in base64 (at most 512 KiB before encoding).", .string())),
        ], required: ["file", "contentType", "base64"])
    }
}
