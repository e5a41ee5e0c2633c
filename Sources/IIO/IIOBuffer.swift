/// A capture buffer of an IIO device: `refill()` blocks until `scans` scans arrived, then the
/// scans are read in place through `scanStart`, `scanStep` and per-channel offsets.
///
/// Owned by one reader thread; only `cancel()` may be called from another thread.
public final class IIOBuffer: @unchecked Sendable {
    let handle: OpaquePointer
    /// The device the buffer captures from.
    public let device: IIODevice
    /// Scans per refill.
    public let scans: Int
    private let deviceID: String

    init(device: IIODevice, scans: Int) throws(IIOError) {
        self.device = device
        self.scans = scans
        deviceID = device.id
        handle = try LibIIO.createBuffer(device: device.handle, scans: scans)
    }

    deinit { LibIIO.destroy(buffer: handle) }

    /// Blocks until the buffer holds new scans; returns the number of bytes read. Throws on
    /// time-out (`IIOError.isTimeout`, retry) and when the device fails or disappears.
    public func refill() throws(IIOError) -> Int {
        try LibIIO.refill(buffer: handle, deviceID: deviceID)
    }

    /// Blocking refills (the default) wait until the buffer is full; non-blocking ones return
    /// what has arrived, up to a full buffer, and fail with a time-out error
    /// (`IIOError.isTimeout`) when nothing has.
    public func setBlocking(_ blocking: Bool) throws(IIOError) {
        try LibIIO.setBlocking(buffer: handle, blocking, deviceID: deviceID)
    }

    /// Wakes a blocked `refill()`, which then fails; further refills fail too. Thread-safe.
    public func cancel() { LibIIO.cancel(buffer: handle) }

    /// Bytes from one scan to the next.
    public var scanStep: Int { LibIIO.step(buffer: handle) }

    /// The first byte of the first scan.
    public var scanStart: UnsafeRawPointer? { LibIIO.start(buffer: handle).map { UnsafeRawPointer($0) } }

    /// One past the last byte of the last scan read.
    public var scanEnd: UnsafeRawPointer? { LibIIO.end(buffer: handle).map { UnsafeRawPointer($0) } }

    /// The byte offset of `channel`'s first value within a scan; nil when it is not enabled.
    public func offset(of channel: IIOChannel) -> Int? {
        guard channel.isEnabled, let start = LibIIO.start(buffer: handle),
            let first = LibIIO.first(buffer: handle, channel: channel.handle)
        else { return nil }
        return first - start
    }
}
