/// A voice prompt that could not be prepared or played, with what to do about it.
public struct VoiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
