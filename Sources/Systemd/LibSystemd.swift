import CSystemd
import Glibc

/// Every call into libsystemd, in one place: negative return codes become `SystemdError` with
/// the C library's message, EINTR is retried, and Swift strings become C strings. Nothing else
/// in the package touches libsystemd.
enum LibSystemd {
    // MARK: Errors

    static func error(_ code: Int32, _ operation: @autoclosure () -> String) -> SystemdError {
        SystemdError(code: code, operation: operation(), reason: String(cString: strerror(code)))
    }

    /// Runs `call` again while it fails with EINTR; a negative result throws.
    @inline(__always)
    static func checked(_ operation: @autoclosure () -> String, _ call: () -> Int32) throws(SystemdError) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            if -result == EINTR { continue }
            throw error(-result, operation())
        }
    }

    // MARK: Service manager notifications (sd_notify(3))

    /// Sends `state` (newline-separated `KEY=VALUE` assignments) to the service manager.
    /// Returns false when there is no service manager to tell (NOTIFY_SOCKET unset).
    static func notify(_ state: String) throws(SystemdError) -> Bool {
        try checked("send \"\(state)\" to the service manager") { sd_notify(0, state) } > 0
    }

    /// The watchdog interval systemd asked for (WATCHDOG_USEC, for this process by WATCHDOG_PID),
    /// in microseconds, or nil when the watchdog is off.
    static func watchdogInterval() throws(SystemdError) -> UInt64? {
        var microseconds: UInt64 = 0
        let enabled = try checked("read WATCHDOG_USEC and WATCHDOG_PID") { sd_watchdog_enabled(0, &microseconds) }
        return enabled > 0 ? microseconds : nil
    }

    // MARK: Socket activation (sd_listen_fds(3), sd_is_socket_unix(3))

    /// The first descriptor passed by socket activation (SD_LISTEN_FDS_START).
    static let firstListenDescriptor: Int32 = 3

    /// How many descriptors the service manager passed, starting at `firstListenDescriptor`.
    /// Unsets LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES so that children do not inherit them.
    static func listenDescriptorCount() throws(SystemdError) -> Int32 {
        try checked("read LISTEN_FDS and LISTEN_PID") { sd_listen_fds(1) }
    }

    /// True when `descriptor` is a listening AF_UNIX stream socket.
    static func isListeningUnixStreamSocket(_ descriptor: Int32) throws(SystemdError) -> Bool {
        try checked("inspect the inherited descriptor \(descriptor)") {
            sd_is_socket_unix(descriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0)
        } > 0
    }

    // MARK: Journal (sd_journal_sendv(3))

    /// Sends one journal entry made of `fields` (`NAME=value`, values may hold any bytes).
    static func journalSend(_ fields: [String]) throws(SystemdError) {
        // One contiguous buffer, so every iovec points into memory that lives for the call.
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.utf8)
            ranges.append(start..<bytes.count)
        }
        let result = bytes.withUnsafeMutableBytes { buffer in
            var vectors = ranges.map { range in
                iovec(iov_base: buffer.baseAddress.map { $0 + range.lowerBound }, iov_len: range.count)
            }
            return vectors.withUnsafeMutableBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
        if result < 0 { throw error(-result, "send a log entry to the journal") }
    }
}
