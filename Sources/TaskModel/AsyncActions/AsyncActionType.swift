/// The `type` of an async action configuration, as SageResearch serializes it.
///
/// Known values get named constants; any other string is kept so that a
/// configuration registered by an embedder round-trips unchanged.
public struct AsyncActionType: ExtensibleName {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Motion sensors: accelerometer, gyroscope, magnetometer and device motion.
    public static let motion = AsyncActionType(rawValue: "motion")
    /// The microphone: audio levels and, optionally, the audio file.
    public static let microphone = AsyncActionType(rawValue: "microphone")
    /// Location-based distance (GPS); decoded, but unsupported on devices without location.
    public static let distance = AsyncActionType(rawValue: "distance")
}
