#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// The socket file at a path: every call the server makes on it, in one place (the file
/// calls through `Syscalls`, docs/system-calls.md).
enum UnixSocketFile {
    /// Makes `path` free to bind: removes a stale socket (nobody accepts on it), refuses a live
    /// one or anything that is not a socket, and creates the parent directory if missing.
    static func prepare(_ path: String) throws(ControlServerError) {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty, (try? Syscalls.access(parent, F_OK)) == nil {
            do { try Syscalls.mkdir(parent, mode: 0o755) } catch {
                if error.errno.rawValue != EEXIST { throw .system("mkdir", parent, errno: error.errno.rawValue) }
            }
        }
        let status: stat
        do { status = try Syscalls.lstat(path) } catch {
            if error.errno.rawValue == ENOENT { return }
            throw .system("stat", path, errno: error.errno.rawValue)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        if isAccepting(path) { throw .socketInUse(path) }
        do { try Syscalls.unlink(path) } catch {
            if error.errno.rawValue != ENOENT { throw .system("unlink", path, errno: error.errno.rawValue) }
        }
    }

    /// Sets the socket file's mode after bind.
    static func setMode(_ path: String, _ mode: UInt32) throws(ControlServerError) {
        do { try Syscalls.chmod(path, mode: mode_t(mode)) } catch {
            throw .system("chmod", path, errno: error.errno.rawValue)
        }
    }

    /// Removes the socket file when the server stops (only if it is still a socket).
    static func remove(_ path: String) {
        if let status = try? Syscalls.lstat(path), status.st_mode & S_IFMT == S_IFSOCK {
            try? Syscalls.unlink(path)
        }
    }

    /// True when a process accepts connections on the socket at `path`.
    private static func isAccepting(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // A connect that succeeds (or that the backlog holds) means a live listener;
        // ECONNREFUSED means nobody accepts: the file is stale.
        return result == 0 || errno == EAGAIN
    }
}
