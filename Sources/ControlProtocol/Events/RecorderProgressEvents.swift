/// `audioLevel`: one second of microphone levels.
public struct AudioLevelEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var identifier: String
    public var averageDBFS: Double
    public var peakDBFS: Double

    public init(identifier: String, averageDBFS: Double, peakDBFS: Double) {
        self.identifier = identifier
        self.averageDBFS = averageDBFS
        self.peakDBFS = peakDBFS
    }

    public static var schema: JSONSchema {
        .object([.init("identifier", .string()), .init("averageDBFS", .number), .init("peakDBFS", .number)],
                required: ["identifier", "averageDBFS", "peakDBFS"])
    }
}

/// `motionProgress`: one second of motion recording.
public struct MotionProgressEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var identifier: String
    public var samplesWritten: Int
    /// Samples per second actually recorded.
    public var achievedRate: Double

    public init(identifier: String, samplesWritten: Int, achievedRate: Double) {
        self.identifier = identifier
        self.samplesWritten = samplesWritten
        self.achievedRate = achievedRate
    }

    public static var schema: JSONSchema {
        .object([.init("identifier", .string()), .init("samplesWritten", .integer(minimum: 0)),
                 .init("achievedRate", .number)], required: ["identifier", "samplesWritten", "achievedRate"])
    }
}
