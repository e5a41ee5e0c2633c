/// A spoken prompt as the session logs it in `prompts.json`: `{stepPath, text, scheduledUptime,
/// spokenUptime, heardBy, endUptime}` (CLOCK_BOOTTIME seconds; `spokenUptime` null when it was
/// never heard; `heardBy`, how the onset was measured, and `endUptime` absent in older runs;
/// docs/runs.md).
public struct PromptRecord: Codable, Sendable, Hashable {
    public var stepPath: String
    public var text: String
    public var scheduledUptime: Double
    public var spokenUptime: Double?
    public var heardBy: String?
    public var endUptime: Double?

    public init(stepPath: String, text: String, scheduledUptime: Double, spokenUptime: Double?,
                heardBy: String? = nil, endUptime: Double? = nil) {
        self.stepPath = stepPath
        self.text = text
        self.scheduledUptime = scheduledUptime
        self.spokenUptime = spokenUptime
        self.heardBy = heardBy
        self.endUptime = endUptime
    }

    /// Seconds late (negative when early); nil when it was never spoken.
    public var lateness: Double? { spokenUptime.map { $0 - scheduledUptime } }

    /// The file name in the run directory.
    public static let fileName = "prompts.json"
}
