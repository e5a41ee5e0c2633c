/// Whether a PCM records or plays.
public enum PCMDirection: String, Sendable, Hashable, Codable, CaseIterable {
    case capture
    case playback
}
