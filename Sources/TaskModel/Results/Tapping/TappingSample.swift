/// One touch of the tapping step (MotorControl's `MCTTappingSample`).
public struct TappingSample: Sendable, Hashable, Codable {
    /// The button touched.
    public enum Button: String, Sendable, Hashable, Codable, CaseIterable {
        case left
        case right
        /// Outside both buttons.
        case none
    }

    /// The step's path, e.g. `Tapping/left/tapping`.
    public var stepPath: String
    /// Seconds since the first tap; absent as MotorControl leaves it when unknown.
    public var timestamp: Double?
    /// The touch's time on the recorder files' `uptime` clock (the daemon maps it there).
    public var uptime: Double
    public var buttonIdentifier: Button
    /// `[x, y]` in the step view's points.
    public var location: [Double]
    /// Seconds from touch-down to release; 0 until released.
    public var duration: Double

    public init(stepPath: String, timestamp: Double?, uptime: Double, buttonIdentifier: Button, location: [Double], duration: Double) {
        self.stepPath = stepPath
        self.timestamp = timestamp
        self.uptime = uptime
        self.buttonIdentifier = buttonIdentifier
        self.location = location
        self.duration = duration
    }

    private enum CodingKeys: String, CodingKey {
        case stepPath, timestamp, uptime, buttonIdentifier, location, duration
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stepPath, forKey: .stepPath)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        try container.encode(uptime, forKey: .uptime)
        try container.encode(buttonIdentifier, forKey: .buttonIdentifier)
        try container.encode(location, forKey: .location)
        try container.encode(duration, forKey: .duration)
    }
}
