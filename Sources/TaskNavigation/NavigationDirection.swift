/// Which way a move went: forward, or backward to a step already in the history.
public enum NavigationDirection: String, Sendable, Hashable, Codable {
    case forward, backward
}
