import ControlChannel
import NIOCore

/// The last handler of the fuzz pipeline: keeps every frame the line decoder emits, in order
/// (what `ControlServer` reads from its `NIOAsyncChannel`).
final class FrameCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ControlFrame

    /// Only touched on the embedded channel's thread, which is the fuzzer's.
    private(set) var frames: [ControlFrame] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        frames.append(unwrapInboundIn(data))
    }
}
