/// A libiio context: the IIO devices of this machine (`local:`) or of a board running iiod
/// (`ip:HOST`).
///
/// A context and everything taken from it (devices, channels, buffers) must be used from one
/// thread at a time; the motion source hands it from the opening thread to its reader thread
/// and never shares it.
public final class IIOContext: @unchecked Sendable {
    let handle: OpaquePointer
    /// The URI the context was created from.
    public let uri: String

    /// Opens the context at `uri` (`local:`, `ip:192.168.2.1`, …).
    public init(uri: String) throws(IIOError) {
        self.uri = uri
        handle = try LibIIO.createContext(uri: uri)
    }

    deinit { LibIIO.destroy(context: handle) }

    /// The backend's name (`local`, `network`).
    public var name: String { LibIIO.name(context: handle) }

    /// The backend's description (the kernel version for `local`).
    public var contextDescription: String { LibIIO.description(context: handle) }

    /// The devices of the context, in libiio's order.
    public var devices: [IIODevice] {
        LibIIO.devices(context: handle).map { IIODevice(handle: $0, context: self) }
    }

    /// How long a blocking call (refill, remote attribute) waits before failing with a
    /// time-out; 0 waits forever.
    public func setTimeout(milliseconds: UInt32) throws(IIOError) {
        try LibIIO.setTimeout(context: handle, milliseconds: milliseconds)
    }

    /// libiio's version, for example `0.24 (v0.24)`.
    public static var libraryVersion: String {
        let version = LibIIO.version()
        return "\(version.major).\(version.minor) (\(version.tag))"
    }
}
