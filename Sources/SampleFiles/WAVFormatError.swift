/// A WAV file whose header cannot be used.
public struct WAVFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
