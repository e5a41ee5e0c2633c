/// `tasks.resource`: a web page or a video beside a task file (the `url` of a `webView` or
/// `videoView` action such as "learn more"), read in pieces from `offset`.
public struct TaskResourceParams: Sendable, Hashable, ControlParams {
    /// The task file as `tasks.list` names it.
    public var task: String
    /// The resource name as the task's action writes it (`url`), with or without extension.
    public var name: String
    /// Where in the file this piece starts, in bytes; 0 when left out.
    public var offset: Int?
    /// At most this many bytes (`TaskResource.pieceSize` when left out, and never more); 0 asks
    /// only whether the file is there, its type and size.
    public var length: Int?

    public init(task: String, name: String, offset: Int? = nil, length: Int? = nil) {
        self.task = task
        self.name = name
        self.offset = offset
        self.length = length
    }

    public static var schema: JSONSchema {
        .object([
            .init("task", .described("The task file as tasks.list names it.", .string())),
            .init("name", .described("The resource as the task's action names it (url), with or without extension.", .string())),
            .init("offset", .described("Where in the file this piece starts, in bytes (0 when left out).", .integer(minimum: 0))),
            .init("length", .described("At most this many bytes (384 KiB when left out, and never more); 0 asks only for the file's type and size.", .integer(minimum: 0))),
        ], required: ["task", "name"])
    }

    public func validate(for method: String) throws(ControlError) {
        if let offset, offset < 0 {
            throw ControlError(.invalidParams, "\(method): offset must be 0 or more; pass the offset the last piece ended at.",
                               data: ControlErrorData(codingPath: "offset", method: method))
        }
        if let length, length < 0 {
            throw ControlError(.invalidParams, "\(method): length must be 0 or more; leave it out for a whole piece.",
                               data: ControlErrorData(codingPath: "length", method: method))
        }
    }
}
