/// The result of `tasks.resource`: one piece of a page or video beside a task file, with the
/// file's whole size so a client knows when it has every piece (docs/protocol.md,
/// "tasks.resource").
public struct TaskResource: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    /// At most this many bytes a piece (its base64, 512 KiB, fits a control line).
    public static let pieceSize = 384 * 1024

    /// The file found, relative to the task directory.
    public var file: String
    /// `text/html`, `video/mp4`, `video/quicktime` or `video/webm`.
    public var contentType: String
    /// The file's size in bytes.
    public var size: Int
    /// Where this piece starts in the file.
    public var offset: Int
    /// The piece's bytes, base64 (RFC 4648, with padding); empty for an empty file.
    public var base64: String

    public init(file: String, contentType: String, size: Int, offset: Int, base64: String) {
        self.file = file
        self.contentType = contentType
        self.size = size
        self.offset = offset
        self.base64 = base64
    }

    public static var schema: JSONSchema {
        .object([
            .init("file", .described("The file found, relative to the task directory.", .string())),
            .init("contentType", .string(enumeration: ["text/html", "video/mp4", "video/quicktime", "video/webm"])),
            .init("size", .described("The file's size in bytes.", .integer(minimum: 0))),
            .init("offset", .described("Where this piece starts in the file.", .integer(minimum: 0))),
            .init("base64", .described("The piece's bytes in base64 (at most 384 KiB before encoding); ask again from offset plus their count until size.", .string())),
        ], required: ["file", "contentType", "size", "offset", "base64"])
    }
}
