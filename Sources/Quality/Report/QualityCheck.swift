/// One quality check of one recording: `{identifier, check, verdict, message, figures}`.
public struct QualityCheck: Codable, Sendable, Hashable {
    /// What was checked: `<file result identifier>/<sensorType>` for a motion sensor, the audio
    /// recorder's identifier, `prompts`, or the failed controller's error result identifier.
    public var identifier: String
    /// The check's name (`rate`, `sampleCount`, `gaps`, `stuck`, `clipping`, `gravity`,
    /// `gyroBias`, `duration`, `overruns`, `levels`, `silence`, `late`, `controllerFailure`, …;
    /// docs/quality.md lists them all).
    public var check: String
    public var verdict: QualityVerdict
    /// A sentence a study coordinator understands.
    public var message: String
    /// The numbers behind the verdict, named as docs/quality.md documents them.
    public var figures: [String: QualityFigure]

    public init(identifier: String, check: String, verdict: QualityVerdict, message: String, figures: [String: QualityFigure] = [:]) {
        self.identifier = identifier
        self.check = check
        self.verdict = verdict
        self.message = message
        self.figures = figures
    }
}
