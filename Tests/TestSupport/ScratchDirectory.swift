public import Foundation

/// A scratch directory for files a test writes; removed by `remove()`.
public struct ScratchDirectory {
    /// The directory, created by `init()`.
    public let url: URL

    /// Creates a fresh, uniquely named directory under the temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("activetask-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to the file `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
