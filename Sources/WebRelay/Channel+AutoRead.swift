import NIOCore

extension Channel {
    /// Starts or stops reading this channel, from code on its own event loop (the relay's two
    /// channels share one): NIO reads again at once when reading is turned back on.
    func setAutoReadNow(_ on: Bool) {
        eventLoop.preconditionInEventLoop()
        _ = try? syncOptions?.setOption(ChannelOptions.autoRead, value: on)
    }
}
