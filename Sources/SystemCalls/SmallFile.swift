import SystemPackage

/// Reads a small file whole (a `/proc` file such as /proc/self/smaps or
/// /proc/thread-self/status) through `Syscalls`, so that its errors are `SystemCallError`s
/// naming the call and the path.
public enum SmallFile {
    /// The file's bytes, read until end of file.
    public static func contents(of path: String) throws(SystemCallError) -> [UInt8] {
        let descriptor = try Syscalls.open(FilePath(path), .readOnly, options: [.closeOnExec])
        defer { try? Syscalls.close(descriptor, path: path) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try Syscalls.read(descriptor, into: $0, path: path) }
            } catch let error as SystemCallError {
                throw error
            } catch {
                throw SystemCallError("read", path: path, caught: error)
            }
            if count == 0 { break }
            text.append(contentsOf: buffer[0..<count])
        }
        return text
    }
}
