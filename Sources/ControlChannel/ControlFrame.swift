public import NIOCore

/// One line read from a control-socket connection.
public enum ControlFrame: Sendable {
    /// A line within the length limit, without its `\n` (and without a `\r` before it).
    case line(NIOCore.ByteBuffer)
    /// A line longer than the limit: its bytes were dropped as they arrived; `length` counts them.
    case oversized(length: Int)
}
