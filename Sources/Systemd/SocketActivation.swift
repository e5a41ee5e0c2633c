import Glibc

/// The listening sockets systemd passed to the daemon (`activetaskd.socket`, sd_listen_fds(3)).
public enum SocketActivation {
    /// The inherited listening descriptors (3, 4, …), each checked to be a listening AF_UNIX
    /// stream socket and marked close-on-exec; empty when the daemon was not socket-activated,
    /// in which case it binds its own socket.
    ///
    /// LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES are removed from the environment, so call this
    /// once, at start.
    public static func listeningDescriptors() throws(SystemdError) -> [Int32] {
        let count = try LibSystemd.listenDescriptorCount()
        let descriptors = (0..<count).map { LibSystemd.firstListenDescriptor + $0 }
        for descriptor in descriptors {
            guard try LibSystemd.isListeningUnixStreamSocket(descriptor) else {
                throw SystemdError(
                    code: ENOTSOCK,
                    operation: "use descriptor \(descriptor) passed by socket activation",
                    reason: "it is not a listening Unix stream socket; the socket unit must use ListenStream= with a path"
                )
            }
            // Children (espeak-ng helpers, tools) must not inherit the control socket.
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return descriptors
    }
}
