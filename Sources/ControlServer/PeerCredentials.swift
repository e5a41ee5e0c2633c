#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Who is on the other end of a connection, from SO_PEERCRED (as of `connect()`).
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// A peer whose credentials could not be read (not a Unix socket).
    public static let unknown = PeerCredentials(pid: 0, uid: .max, gid: .max)

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// Reads SO_PEERCRED of a connected Unix-socket channel.
    static func read(from channel: any Channel) async throws -> PeerCredentials {
        guard let provider = channel as? any SocketOptionProvider else { return .unknown }
        let credentials: LinuxPeerCredentials = try await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        ).get()
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}

/// `struct ucred` of <sys/socket.h> (pid_t, uid_t, gid_t), which Glibc's Swift module hides
/// behind _GNU_SOURCE; same layout.
private struct LinuxPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
