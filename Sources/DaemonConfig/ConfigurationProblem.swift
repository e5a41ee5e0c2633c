/// One bad setting: its key path (as in the file, `voice.rate`) and what is allowed.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The setting's key path, dot-separated.
    public var keyPath: String
    /// Full sentences: what is wrong and what is allowed.
    public var message: String

    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }
}
