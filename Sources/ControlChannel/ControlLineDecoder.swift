public import NIOCore

/// Splits a byte stream into lines of at most `maximumLength` bytes.
///
/// A longer line is never buffered: its bytes are dropped as they arrive and one `.oversized`
/// frame is emitted when its `\n` comes, so that the connection can answer it and go on.
public struct ControlLineDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ControlFrame

    /// The control socket's limit: 1 MiB per line.
    public static let defaultMaximumLength = 1 << 20

    public let maximumLength: Int
    /// Bytes of an over-long line dropped so far; nil when not inside one.
    private var discarded: Int?
    /// How far the current line was already searched for `\n` (so a long line is scanned once).
    private var searched = 0

    public init(maximumLength: Int = ControlLineDecoder.defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout NIOCore.ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view[(view.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) else {
            if let discarded {
                // Still inside an over-long line: drop what came.
                self.discarded = discarded + buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                searched = 0
            } else if buffer.readableBytes > maximumLength {
                discarded = buffer.readableBytes
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                searched = 0
            } else {
                searched = buffer.readableBytes
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        searched = 0
        if let discarded {
            buffer.moveReaderIndex(forwardBy: length + 1)
            self.discarded = nil
            context.fireChannelRead(wrapInboundOut(.oversized(length: discarded + length)))
        } else if length > maximumLength {
            buffer.moveReaderIndex(forwardBy: length + 1)
            context.fireChannelRead(wrapInboundOut(.oversized(length: length)))
        } else {
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") {
                line.moveWriterIndex(to: line.writerIndex - 1)
            }
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout NIOCore.ByteBuffer,
                                    seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last line without its newline still counts.
        if let discarded {
            context.fireChannelRead(wrapInboundOut(.oversized(length: discarded + buffer.readableBytes)))
            self.discarded = nil
        } else if buffer.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(.line(buffer.readSlice(length: buffer.readableBytes)!)))
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}

extension ControlLineDecoder: Sendable {}
