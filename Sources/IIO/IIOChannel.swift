/// One channel of an IIO device (`accel_x`, `anglvel_z`, `timestamp`).
public struct IIOChannel: IIOAttributeReading, @unchecked Sendable {
    let handle: OpaquePointer
    /// The device the channel belongs to.
    public let device: IIODevice

    init(handle: OpaquePointer, device: IIODevice) {
        self.handle = handle
        self.device = device
    }

    /// The channel's id without direction prefix (`accel_x`).
    public var id: String { LibIIO.id(channel: handle) }
    /// The channel's extended name, when it has one.
    public var name: String? { LibIIO.name(channel: handle) }
    /// True for output channels.
    public var isOutput: Bool { LibIIO.isOutput(channel: handle) }
    /// True when the channel can be captured in a buffer.
    public var isScanElement: Bool { LibIIO.isScanElement(channel: handle) }
    /// The channel's position in a scan (`_index`).
    public var index: Int { LibIIO.index(channel: handle) }
    /// How the channel's values are stored in a scan; nil for channels that are not scan elements.
    public var scanType: ScanType? { isScanElement ? LibIIO.format(channel: handle) : nil }

    /// The names of the channel's attributes (`scale`, `offset`, `mount_matrix`, …).
    public var attributeNames: [String] { LibIIO.attributeNames(channel: handle) }

    /// Reads a channel attribute (trailing newline removed).
    public func readAttribute(_ name: String) throws(IIOError) -> String {
        try LibIIO.readAttribute(channel: handle, name)
    }


    /// Writes a channel attribute.
    public func writeAttribute(_ name: String, _ value: String) throws(IIOError) {
        try LibIIO.writeAttribute(channel: handle, name, value)
    }

    /// Adds the channel to the next buffer's scans.
    public func enable() { LibIIO.enable(channel: handle) }
    /// Leaves the channel out of the next buffer's scans.
    public func disable() { LibIIO.disable(channel: handle) }
    /// Whether the channel is enabled for the next buffer.
    public var isEnabled: Bool { LibIIO.isEnabled(channel: handle) }
}
