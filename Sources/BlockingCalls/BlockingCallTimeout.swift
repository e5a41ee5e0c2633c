/// A blocking call did not return within its deadline. The call goes on on its own thread
/// (a thread stuck in the kernel cannot be stopped) and shows in `ThreadHeartbeats.stalled`.
public struct BlockingCallTimeout: Error, Sendable, CustomStringConvertible {
    /// The name the call was started with.
    public var name: String
    /// The deadline it missed.
    public var deadline: Duration

    public var description: String {
        "\(name) did not return within \(deadline); it is left running on its own thread."
    }
}
