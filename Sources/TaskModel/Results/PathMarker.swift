/// One move along the current path of a task or section result: `{identifier, direction}`
/// (JsonModel's `PathMarker`). A result's `path` is trimmed when the person goes back, so it
/// always describes the way to where they are now; `stepHistory` keeps everything.
public struct PathMarker: Codable, Sendable, Hashable {
    /// Which way the move went, with JsonModel's names.
    public enum Direction: String, Codable, Sendable, Hashable {
        case forward, backward, exit
    }

    /// The identifier of the step or section moved to.
    public var identifier: String
    public var direction: Direction

    public init(identifier: String, direction: Direction) {
        self.identifier = identifier
        self.direction = direction
    }
}
