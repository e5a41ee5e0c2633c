import ControlProtocol
import Foundation

/// A web page or a video beside a task file, read a piece at a time for `tasks.resource`
/// (docs/protocol.md, "tasks.resource"): the `url` of a SageResearch `webView` or `videoView`
/// action such as "learn more". A video is larger than a control line, so a client asks for
/// `TaskResource.pieceSize` bytes at a time from the offset the last piece ended at.
struct TaskResourceFile {
    /// Content types by file extension; the order is the one tried for a name without one (a
    /// page first, as SageResearch looks a `webView`'s name up as HTML).
    static let contentTypes: [(extension: String, type: String)] = [
        ("html", "text/html"), ("htm", "text/html"), ("mp4", "video/mp4"), ("m4v", "video/mp4"),
        ("mov", "video/quicktime"), ("webm", "video/webm"),
    ]

    var directory: URL

    /// Reads the piece at `params.offset` (at most `params.length` bytes); blocking. Throws
    /// `invalidParams` for a name that is not a plain relative path or an offset past the end,
    /// `notFound` for everything else that does not give a page or a video.
    func read(_ params: TaskResourceParams) throws(ControlError) -> TaskResource {
        let method = ControlMethods.tasksResource.name
        let folder = TaskFolderFile(directory: directory, contentTypes: Self.contentTypes)
        guard let found = try folder.find(task: params.task, name: params.name, method: method) else {
            throw ControlError(.notFound,
                               "No page or video \"\(params.name)\" was found beside \(params.task) in the task directory; pages are HTML files there, videos MP4, QuickTime or WebM files.",
                               data: ControlErrorData(method: method))
        }
        let offset = params.offset ?? 0
        guard offset <= found.size else {
            throw ControlError(.invalidParams, "\(method): offset \(offset) is past the end of \(found.file), which has \(found.size) bytes; ask from an offset below its size.",
                               data: ControlErrorData(codingPath: "offset", method: method))
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: found.path))
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            let length = min(params.length ?? TaskResource.pieceSize, TaskResource.pieceSize, found.size - offset)
            let piece = length > 0 ? try handle.read(upToCount: length) ?? Data() : Data()
            return TaskResource(file: found.file, contentType: found.contentType, size: found.size, offset: offset,
                                base64: piece.base64EncodedString())
        } catch {
            throw ControlError(.notFound, "\(found.file) could not be read (\(error.localizedDescription)); check that the daemon's user may read it.",
                               data: ControlErrorData(method: method))
        }
    }
}
