public import Glibc
public import SystemPackage

/// Every system call the product makes for files, sleeping, clocks and thread scheduling, one
/// small wrapper each (docs/system-calls.md), as swift-system's `Syscalls.swift` does: a failure
/// is a `SystemCallError` naming the call and its path, and a call a signal interrupts (EINTR) is
/// retried in one place, `retryingOnInterrupt`. Calls swift-system's `FileDescriptor` already
/// makes (open, read, write, seek, close) go through it with `retryOnInterrupt: true`.
///
/// Everything here blocks: call it from a dedicated thread or `BlockingCall.run`, never on an
/// actor (docs/async-actions.md, "Blocking calls and the watchdog"). The C libraries (libiio,
/// ALSA, libsystemd, espeak-ng) keep their own one-file wrappers, and sockets belong to NIO.
public enum Syscalls {
    // MARK: Interrupted calls

    /// Makes `call` again for as long as it fails with EINTR (a signal arrived before it did
    /// its work), and returns its last result: -1 with `errno` set, or what it returned. The
    /// one place the product retries an interrupted call.
    @inlinable
    public static func retryingOnInterrupt<Result: SignedInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// Throws the `errno` of a call that returned -1.
    @usableFromInline
    static func check<Result: SignedInteger>(_ result: Result, _ call: String, path: String?) throws(SystemCallError) {
        if result == -1 { throw SystemCallError(call, path: path, errno: Errno(rawValue: Glibc.errno)) }
    }

    // MARK: Descriptors

    /// open(2) of `path`.
    public static func open(
        _ path: FilePath, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions? = nil
    ) throws(SystemCallError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, mode, options: options, permissions: permissions, retryOnInterrupt: true)
        } catch {
            throw SystemCallError("open", path: path.string, caught: error)
        }
    }

    /// close(2). Never retried: Linux has released the descriptor even when close reports
    /// EINTR, and a second close could close one another thread has just opened.
    public static func close(_ descriptor: FileDescriptor, path: String? = nil) throws(SystemCallError) {
        do { try descriptor.close() } catch { throw SystemCallError("close", path: path, caught: error) }
    }

    /// read(2): up to `buffer.count` bytes at the descriptor's offset; 0 at the end of the file.
    public static func read(
        _ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, path: String? = nil
    ) throws(SystemCallError) -> Int {
        do { return try descriptor.read(into: buffer, retryOnInterrupt: true) } catch {
            throw SystemCallError("read", path: path, caught: error)
        }
    }

    /// pread(2): up to `buffer.count` bytes at `offset`, leaving the descriptor's offset alone.
    public static func read(
        _ descriptor: FileDescriptor, fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer,
        path: String? = nil
    ) throws(SystemCallError) -> Int {
        do { return try descriptor.read(fromAbsoluteOffset: offset, into: buffer, retryOnInterrupt: true) } catch {
            throw SystemCallError("pread", path: path, caught: error)
        }
    }

    /// write(2) until every byte of `bytes` is written; returns their count.
    @discardableResult
    public static func writeAll(
        _ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer, path: String? = nil
    ) throws(SystemCallError) -> Int {
        do { return try descriptor.writeAll(bytes) } catch {
            throw SystemCallError("write", path: path, caught: error)
        }
    }

    /// pwrite(2) of every byte of `bytes` at `offset`, leaving the descriptor's offset alone.
    @discardableResult
    public static func writeAll(
        _ descriptor: FileDescriptor, toAbsoluteOffset offset: Int64, _ bytes: UnsafeRawBufferPointer, path: String? = nil
    ) throws(SystemCallError) -> Int {
        do { return try descriptor.writeAll(toAbsoluteOffset: offset, bytes) } catch {
            throw SystemCallError("pwrite", path: path, caught: error)
        }
    }

    /// lseek(2); returns the new offset.
    @discardableResult
    public static func seek(
        _ descriptor: FileDescriptor, offset: Int64, from origin: FileDescriptor.SeekOrigin, path: String? = nil
    ) throws(SystemCallError) -> Int64 {
        do { return try descriptor.seek(offset: offset, from: origin) } catch {
            throw SystemCallError("lseek", path: path, caught: error)
        }
    }

    /// fsync(2): the file's data and metadata on stable storage. For a directory, its entries
    /// (files created, renamed or removed in it).
    public static func fsync(_ descriptor: FileDescriptor, path: String? = nil) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.fsync(descriptor.rawValue) }, "fsync", path: path)
    }

    /// ftruncate(2): cuts (or extends with zeros) the file to `length` bytes.
    public static func ftruncate(_ descriptor: FileDescriptor, to length: Int64, path: String? = nil) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.ftruncate(descriptor.rawValue, off_t(length)) }, "ftruncate", path: path)
    }

    /// fstat(2).
    public static func fstat(_ descriptor: FileDescriptor, path: String? = nil) throws(SystemCallError) -> Glibc.stat {
        var status = Glibc.stat()
        try check(retryingOnInterrupt { Glibc.fstat(descriptor.rawValue, &status) }, "fstat", path: path)
        return status
    }

    // MARK: Paths

    /// lstat(2): what is at `path` itself (a symbolic link is not followed).
    public static func lstat(_ path: String) throws(SystemCallError) -> Glibc.stat {
        var status = Glibc.stat()
        try check(retryingOnInterrupt { Glibc.lstat(path, &status) }, "lstat", path: path)
        return status
    }

    /// access(2): succeeds when the process may use `path` as `mode` says (`F_OK`: it exists).
    public static func access(_ path: String, _ mode: Int32) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.access(path, mode) }, "access", path: path)
    }

    /// rename(2): atomically replaces `destination` with `source` (same file system only).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.rename(source, destination) }, "rename", path: "\(source) to \(destination)")
    }

    /// unlink(2).
    public static func unlink(_ path: String) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.unlink(path) }, "unlink", path: path)
    }

    /// mkdir(2) with `mode` (less the umask).
    public static func mkdir(_ path: String, mode: mode_t) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.mkdir(path, mode) }, "mkdir", path: path)
    }

    /// readlink(2): where the symbolic link `path` points.
    public static func readlink(_ path: String) throws(SystemCallError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = retryingOnInterrupt { Glibc.readlink(path, &buffer, buffer.count - 1) }
        try check(count, "readlink", path: path)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// chmod(2).
    public static func chmod(_ path: String, mode: mode_t) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.chmod(path, mode) }, "chmod", path: path)
    }

    // MARK: Memory

    /// madvise(2) of `length` bytes from `address` (page-aligned) with `advice` (MADV_PAGEOUT, …).
    public static func madvise(_ address: UnsafeMutableRawPointer, length: Int, advice: Int32) throws(SystemCallError) {
        try check(retryingOnInterrupt { Glibc.madvise(address, length, advice) }, "madvise", path: nil)
    }

    /// posix_fadvise(2) of the whole file behind `descriptor` with `advice`
    /// (POSIX_FADV_DONTNEED, …); it returns its error number instead of setting errno.
    public static func fadvise(_ descriptor: FileDescriptor, advice: Int32, path: String? = nil) throws(SystemCallError) {
        let result = posix_fadvise(descriptor.rawValue, 0, 0, advice)
        if result != 0 { throw SystemCallError("posix_fadvise", path: path, errno: Errno(rawValue: result)) }
    }

    // MARK: Scheduling and limits

    /// sched_setscheduler(2) of the calling thread (pid 0 is the caller on Linux, where each
    /// thread has its own policy): `policy` (SCHED_FIFO, SCHED_RR, SCHED_OTHER, optionally or-ed
    /// with SCHED_RESET_ON_FORK) at `priority` (1 to 99 for the real-time policies, 0 otherwise).
    /// EPERM when the process may not: no CAP_SYS_NICE and `priority` above RLIMIT_RTPRIO, or a
    /// unit's `RestrictRealtime=yes` or system-call filter.
    public static func setScheduler(_ policy: Int32, priority: Int32) throws(SystemCallError) {
        var parameters = sched_param(sched_priority: priority)
        try check(retryingOnInterrupt { Glibc.sched_setscheduler(0, policy, &parameters) }, "sched_setscheduler", path: nil)
    }

    /// sched_getscheduler(2) of the calling thread: its policy, with SCHED_RESET_ON_FORK or-ed in
    /// when it is set.
    public static func scheduler() throws(SystemCallError) -> Int32 {
        let policy = retryingOnInterrupt { Glibc.sched_getscheduler(0) }
        try check(policy, "sched_getscheduler", path: nil)
        return policy
    }

    /// sched_getparam(2) of the calling thread: its static priority (0 unless real-time).
    public static func schedulingPriority() throws(SystemCallError) -> Int32 {
        var parameters = sched_param()
        try check(retryingOnInterrupt { Glibc.sched_getparam(0, &parameters) }, "sched_getparam", path: nil)
        return parameters.sched_priority
    }

    /// sched_get_priority_min(2) and sched_get_priority_max(2) of `policy` (1...99 for SCHED_FIFO
    /// and SCHED_RR on Linux).
    public static func priorityRange(_ policy: Int32) throws(SystemCallError) -> ClosedRange<Int32> {
        let minimum = Glibc.sched_get_priority_min(policy)
        try check(minimum, "sched_get_priority_min", path: nil)
        let maximum = Glibc.sched_get_priority_max(policy)
        try check(maximum, "sched_get_priority_max", path: nil)
        return minimum...maximum
    }

    /// getrlimit(2) of RLIMIT_RTPRIO: the highest real-time priority the process may give a
    /// thread without CAP_SYS_NICE (soft limit; `rlim_t.max` is unlimited). systemd's
    /// `LimitRTPRIO=` sets it.
    public static func realTimePriorityLimit() throws(SystemCallError) -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        try check(Glibc.getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit), "getrlimit", path: "RLIMIT_RTPRIO")
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    // MARK: Time

    /// nanosleep(2) for `seconds`; a signal that interrupts it resumes it for the time left,
    /// so the whole time is slept. Nothing for zero or less.
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        var remaining = timespec()
        _ = retryingOnInterrupt { () -> Int32 in
            let result = Glibc.nanosleep(&request, &remaining)
            if result != 0 { request = remaining }
            return result
        }
    }

    /// clock_gettime(2): `clock`'s reading now. The clocks the product reads (CLOCK_BOOTTIME,
    /// CLOCK_MONOTONIC, CLOCK_REALTIME, the IIO timestamp clocks) exist on every Linux it runs
    /// on, so no failure is reported. Inlined: the recorders read a clock per batch.
    @inlinable
    public static func clockTime(_ clock: clockid_t) -> timespec {
        var time = timespec()
        _ = Glibc.clock_gettime(clock, &time)
        return time
    }
}
