import Foundation
public import SystemCalls
import SystemPackage

/// One metrics file in node_exporter's textfile collector directory (`metricsDirectory`,
/// docs/fleet.md): replaced atomically, as Debian's own textfile timers do, so that the
/// collector never reads half a file. Nothing is written when the directory does not exist:
/// a device without node_exporter gets no stray files.
public struct MetricsTextFile: Sendable, Hashable {
    /// The collector's directory.
    public var directory: String
    /// The file's name (`activetaskd.prom`); it must end in `.prom` to be collected.
    public var fileName: String

    public init(directory: String, fileName: String) {
        self.directory = directory
        self.fileName = fileName
    }

    public var path: String { FilePath(directory).appending(fileName).string }

    /// Whether `directory` exists as a directory now.
    public var directoryExists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Writes `exposition` (blocking: call it off any actor). Returns false, writing nothing,
    /// when the directory does not exist; throws when the file cannot be written.
    @discardableResult
    public func write(_ exposition: MetricsExposition) throws(SystemCallError) -> Bool {
        guard directoryExists else { return false }
        let bytes = Array(exposition.text.utf8)
        do {
            // Readable by node_exporter's user whatever the unit's UMask (docs/fleet.md).
            try bytes.withUnsafeBytes { try DurableFile.write($0, to: path, exactPermissions: true) }
        } catch let error as SystemCallError {
            throw error
        } catch {
            throw SystemCallError("write", path: path, errno: .ioError)
        }
        return true
    }
}
