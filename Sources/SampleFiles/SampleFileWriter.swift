public import SystemPackage
import Clocks
import SystemCalls

/// A buffered, append-only file writer for sample data, owned by one thread at a time.
///
/// Bytes collect in a reserved buffer and go to the file when it fills or the flush interval
/// passes; fsync follows the sync interval (see `SyncPolicy`). Memory stays bounded by the
/// buffer capacity however long the recording runs. Not thread-safe: a recorder's writer lives
/// on the recorder's own I/O thread.
public final class SampleFileWriter {
    public let path: FilePath
    public let policy: SyncPolicy
    private let descriptor: FileDescriptor
    private let capacity: Int
    /// The pending bytes; record formatters append here directly. Not checked for exclusive
    /// access at run time (a check per record costs more than the record's bytes): the writer
    /// is owned by one thread at a time and nothing re-enters it while a record is appended.
    @exclusivity(unchecked) public var buffer: SampleByteBuffer
    private var lastFlush: Double
    private var lastSync: Double
    private var isClosed = false
    /// Bytes handed to the file so far (excluding what is still buffered).
    public private(set) var bytesWritten: Int = 0

    /// Creates (or truncates) the file at `path`.
    public init(path: FilePath, policy: SyncPolicy = .default, bufferCapacity: Int = 64 * 1024) throws(SampleFileError) {
        self.path = path
        self.policy = policy
        self.capacity = bufferCapacity
        self.buffer = SampleByteBuffer(capacity: bufferCapacity + 4096)
        do {
            descriptor = try Syscalls.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead])
        } catch {
            throw SampleFileError(path: path.string, operation: "create", errno: error.errno)
        }
        let now = RecordingClock.monotonic()
        lastFlush = now
        lastSync = now
    }

    deinit {
        if !isClosed { try? Syscalls.close(descriptor) }
    }

    /// Total size of the file once everything buffered is written.
    public var logicalSize: Int { bytesWritten + buffer.count }

    /// Writes the buffer out when it is full or the flush interval has passed, and fsyncs when
    /// the sync interval has passed. Call after appending each record.
    @inline(__always)
    public func commitIfNeeded() throws(SampleFileError) {
        if buffer.count >= capacity {
            try flush()
            try syncIfDue(now: RecordingClock.monotonic())
            return
        }
        // Checking the clock costs ~20 ns; only do it every so often by size.
        if buffer.count & 0x3FF == 0 || buffer.count > capacity / 2 {
            try maybeFlushByTime()
        }
    }

    /// Writes the buffer out when it is full, without looking at the clock: for a caller that
    /// calls `maybeFlushByTime()` itself after each batch of records (the motion recorder,
    /// once per refill), so no record pays for a clock read.
    @inline(__always)
    public func commitIfFull() throws(SampleFileError) {
        if buffer.count >= capacity {
            try flush()
            try syncIfDue(now: RecordingClock.monotonic())
        }
    }

    /// Flushes and fsyncs if their intervals have passed (call from a periodic tick too, so a
    /// slow stream still reaches the disk).
    public func maybeFlushByTime() throws(SampleFileError) {
        let now = RecordingClock.monotonic()
        if now - lastFlush >= policy.flushInterval {
            try flush()
        }
        try syncIfDue(now: now)
    }

    /// Hands every buffered byte to the kernel.
    public func flush() throws(SampleFileError) {
        lastFlush = RecordingClock.monotonic()
        guard !buffer.isEmpty else { return }
        do {
            let written = try buffer.withUnsafeBytes { raw throws(SystemCallError) in
                try Syscalls.writeAll(descriptor, raw)
            }
            bytesWritten += written
        } catch {
            throw SampleFileError(path: path.string, operation: "write", errno: error.errno)
        }
        buffer.removeAll()
    }

    /// Forces written data to stable storage now.
    public func sync() throws(SampleFileError) {
        try flush()
        lastSync = RecordingClock.monotonic()
        do {
            try Syscalls.fsync(descriptor)
        } catch {
            throw SampleFileError(path: path.string, operation: "fsync", errno: error.errno)
        }
    }

    /// Overwrites bytes already in the file (a WAV header's sizes); flushes first.
    public func overwrite(at offset: Int64, bytes: [UInt8]) throws(SampleFileError) {
        try flush()
        do {
            _ = try bytes.withUnsafeBytes { raw in
                try Syscalls.writeAll(descriptor, toAbsoluteOffset: offset, raw)
            }
        } catch {
            throw SampleFileError(path: path.string, operation: "update", caught: error)
        }
    }

    /// Flushes, fsyncs and closes the file. Further writes are an error.
    public func close() throws(SampleFileError) {
        guard !isClosed else { return }
        defer {
            isClosed = true
            try? Syscalls.close(descriptor)
        }
        try sync()
    }

    private func syncIfDue(now: Double) throws(SampleFileError) {
        if now - lastSync >= policy.syncInterval {
            try sync()
        }
    }
}
