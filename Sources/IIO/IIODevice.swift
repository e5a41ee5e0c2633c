/// One IIO device (`iio:device0`) of a context.
public struct IIODevice: IIOAttributeReading, @unchecked Sendable {
    let handle: OpaquePointer
    /// Keeps the context alive as long as the device is used.
    public let context: IIOContext

    init(handle: OpaquePointer, context: IIOContext) {
        self.handle = handle
        self.context = context
    }

    /// The device's id (`iio:device0`).
    public var id: String { LibIIO.id(device: handle) }
    /// The driver's name (`lsm6dsx`), when it has one.
    public var name: String? { LibIIO.name(device: handle) }
    /// The device's label, when it has one.
    public var label: String? { LibIIO.label(device: handle) }

    /// The device's channels, in libiio's order.
    public var channels: [IIOChannel] {
        LibIIO.channels(device: handle).map { IIOChannel(handle: $0, device: self) }
    }

    /// The names of the device-level attributes.
    public var attributeNames: [String] { LibIIO.attributeNames(device: handle) }

    /// The names of the buffer attributes (`length`, `enable`, …).
    public var bufferAttributeNames: [String] { LibIIO.bufferAttributeNames(device: handle) }

    /// Reads a device attribute (trailing newline removed).
    public func readAttribute(_ name: String) throws(IIOError) -> String {
        try LibIIO.readAttribute(device: handle, name)
    }


    /// Writes a device attribute.
    public func writeAttribute(_ name: String, _ value: String) throws(IIOError) {
        try LibIIO.writeAttribute(device: handle, name, value)
    }

    /// Reads a buffer attribute.
    public func readBufferAttribute(_ name: String) throws(IIOError) -> String {
        try LibIIO.readBufferAttribute(device: handle, name)
    }

    /// The size in bytes of one scan with the channels enabled now.
    public func scanSize() throws(IIOError) -> Int { try LibIIO.sampleSize(device: handle) }

    /// Creates a buffer of `scans` scans over the enabled channels (enables the kernel buffer).
    public func createBuffer(scans: Int) throws(IIOError) -> IIOBuffer {
        try IIOBuffer(device: self, scans: scans)
    }

    /// The clock of the timestamp channel, when the device says.
    public var timestampClock: TimestampClock? {
        attribute("current_timestamp_clock").flatMap(TimestampClock.init(attribute:))
    }
}
