/// The limits of every quality check (docs/quality.md). Codable: the daemon's configuration
/// file passes an object through, and any key left out keeps its default.
public struct QualityThresholds: Codable, Sendable, Hashable {
    /// Achieved rate off the expected rate by this fraction or more: warning.
    public var rateWarningFraction: Double = 0.1
    /// … by this fraction or more: failed.
    public var rateFailedFraction: Double = 0.25
    /// Fewer samples than duration × rate by this fraction or more: warning.
    public var sampleCountWarningFraction: Double = 0.05
    /// … by this fraction or more: failed.
    public var sampleCountFailedFraction: Double = 0.2
    /// A step between samples longer than this many periods is a gap (the recorder's own rule).
    public var gapTolerancePeriods: Double = 1.9
    /// Total seconds missing in gaps above this: warning (any gap by default).
    public var gapWarningSeconds: Double = 0.0
    /// Total seconds missing in gaps at or above this: failed.
    public var gapFailedSeconds: Double = 1.0
    /// An axis repeating one value exactly for this long: warning.
    public var stuckWarningSeconds: Double = 1.0
    /// … for this long, or for half the recording or more: failed.
    public var stuckFailedSeconds: Double = 5.0
    /// A repeated run shorter than this many samples is never stuck.
    public var stuckMinimumSamples: Int = 10
    /// At least this many samples on one extreme value count as clipping.
    public var clippingMinimumSamples: Int = 3
    /// Clipped share of the samples at or above this: failed (any clipping is a warning).
    public var clippingFailedFraction: Double = 0.01
    /// Smallest magnitude (g) an accelerometer extreme must reach to count as full scale (±2 g is the smallest common range).
    public var accelerometerFullScale: Double = 1.9
    /// Smallest magnitude (rad/s) for a gyroscope extreme (±250 °/s ≈ 4.36 rad/s).
    public var gyroFullScale: Double = 4.3
    /// Smallest magnitude (µT) for a magnetometer extreme (±4 gauss).
    public var magnetometerFullScale: Double = 390.0
    /// Length of the windows judged still or moving.
    public var stillWindowSeconds: Double = 0.5
    /// A window is still when every accelerometer axis varies less than this (g, standard deviation)…
    public var stillAccelerometerDeviation: Double = 0.02
    /// … and every gyroscope axis less than this (rad/s).
    public var stillGyroDeviation: Double = 0.05
    /// Accelerometer magnitude while still off 1 g by this much: warning.
    public var gravityWarningDeviation: Double = 0.05
    /// … by this much: failed.
    public var gravityFailedDeviation: Double = 0.15
    /// Gyroscope mean while still of this magnitude (rad/s): warning.
    public var gyroBiasWarning: Double = 0.05
    /// … of this magnitude: failed.
    public var gyroBiasFailed: Double = 0.2
    /// Audio shorter than its recording's span by this much: warning.
    public var audioDurationWarningSeconds: Double = 0.5
    /// … by this much: failed.
    public var audioDurationFailedSeconds: Double = 2.0
    /// Seconds of audio lost to overruns above this: warning (any by default).
    public var overrunWarningSeconds: Double = 0.0
    /// … at or above this: failed.
    public var overrunFailedSeconds: Double = 1.0
    /// A second whose average level is at or below this is silent.
    public var silenceLevelDBFS: Double = -70.0
    /// Silent share of the recording at or above this: warning.
    public var silenceWarningFraction: Double = 0.5
    /// … at or above this: failed (a dead or muted microphone).
    public var silenceFailedFraction: Double = 0.9
    /// Share of audio samples at full scale at or above this: warning.
    public var audioClippingWarningFraction: Double = 0.0005
    /// … at or above this: failed.
    public var audioClippingFailedFraction: Double = 0.01
    /// A prompt heard this many seconds after its scheduled time: warning.
    public var promptLateWarningSeconds: Double = 0.25
    /// … this many seconds late, or never heard: failed.
    public var promptLateFailedSeconds: Double = 1.0

    /// The defaults.
    public init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case rateWarningFraction, rateFailedFraction, sampleCountWarningFraction, sampleCountFailedFraction, gapTolerancePeriods, gapWarningSeconds, gapFailedSeconds, stuckWarningSeconds, stuckFailedSeconds, stuckMinimumSamples, clippingMinimumSamples, clippingFailedFraction, accelerometerFullScale, gyroFullScale, magnetometerFullScale, stillWindowSeconds, stillAccelerometerDeviation, stillGyroDeviation, gravityWarningDeviation, gravityFailedDeviation, gyroBiasWarning, gyroBiasFailed, audioDurationWarningSeconds, audioDurationFailedSeconds, overrunWarningSeconds, overrunFailedSeconds, silenceLevelDBFS, silenceWarningFraction, silenceFailedFraction, audioClippingWarningFraction, audioClippingFailedFraction, promptLateWarningSeconds, promptLateFailedSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = QualityThresholds()
        rateWarningFraction = try container.decodeIfPresent(Double.self, forKey: .rateWarningFraction) ?? defaults.rateWarningFraction
        rateFailedFraction = try container.decodeIfPresent(Double.self, forKey: .rateFailedFraction) ?? defaults.rateFailedFraction
        sampleCountWarningFraction = try container.decodeIfPresent(Double.self, forKey: .sampleCountWarningFraction) ?? defaults.sampleCountWarningFraction
        sampleCountFailedFraction = try container.decodeIfPresent(Double.self, forKey: .sampleCountFailedFraction) ?? defaults.sampleCountFailedFraction
        gapTolerancePeriods = try container.decodeIfPresent(Double.self, forKey: .gapTolerancePeriods) ?? defaults.gapTolerancePeriods
        gapWarningSeconds = try container.decodeIfPresent(Double.self, forKey: .gapWarningSeconds) ?? defaults.gapWarningSeconds
        gapFailedSeconds = try container.decodeIfPresent(Double.self, forKey: .gapFailedSeconds) ?? defaults.gapFailedSeconds
        stuckWarningSeconds = try container.decodeIfPresent(Double.self, forKey: .stuckWarningSeconds) ?? defaults.stuckWarningSeconds
        stuckFailedSeconds = try container.decodeIfPresent(Double.self, forKey: .stuckFailedSeconds) ?? defaults.stuckFailedSeconds
        stuckMinimumSamples = try container.decodeIfPresent(Int.self, forKey: .stuckMinimumSamples) ?? defaults.stuckMinimumSamples
        clippingMinimumSamples = try container.decodeIfPresent(Int.self, forKey: .clippingMinimumSamples) ?? defaults.clippingMinimumSamples
        clippingFailedFraction = try container.decodeIfPresent(Double.self, forKey: .clippingFailedFraction) ?? defaults.clippingFailedFraction
        accelerometerFullScale = try container.decodeIfPresent(Double.self, forKey: .accelerometerFullScale) ?? defaults.accelerometerFullScale
        gyroFullScale = try container.decodeIfPresent(Double.self, forKey: .gyroFullScale) ?? defaults.gyroFullScale
        magnetometerFullScale = try container.decodeIfPresent(Double.self, forKey: .magnetometerFullScale) ?? defaults.magnetometerFullScale
        stillWindowSeconds = try container.decodeIfPresent(Double.self, forKey: .stillWindowSeconds) ?? defaults.stillWindowSeconds
        stillAccelerometerDeviation = try container.decodeIfPresent(Double.self, forKey: .stillAccelerometerDeviation) ?? defaults.stillAccelerometerDeviation
        stillGyroDeviation = try container.decodeIfPresent(Double.self, forKey: .stillGyroDeviation) ?? defaults.stillGyroDeviation
        gravityWarningDeviation = try container.decodeIfPresent(Double.self, forKey: .gravityWarningDeviation) ?? defaults.gravityWarningDeviation
        gravityFailedDeviation = try container.decodeIfPresent(Double.self, forKey: .gravityFailedDeviation) ?? defaults.gravityFailedDeviation
        gyroBiasWarning = try container.decodeIfPresent(Double.self, forKey: .gyroBiasWarning) ?? defaults.gyroBiasWarning
        gyroBiasFailed = try container.decodeIfPresent(Double.self, forKey: .gyroBiasFailed) ?? defaults.gyroBiasFailed
        audioDurationWarningSeconds = try container.decodeIfPresent(Double.self, forKey: .audioDurationWarningSeconds) ?? defaults.audioDurationWarningSeconds
        audioDurationFailedSeconds = try container.decodeIfPresent(Double.self, forKey: .audioDurationFailedSeconds) ?? defaults.audioDurationFailedSeconds
        overrunWarningSeconds = try container.decodeIfPresent(Double.self, forKey: .overrunWarningSeconds) ?? defaults.overrunWarningSeconds
        overrunFailedSeconds = try container.decodeIfPresent(Double.self, forKey: .overrunFailedSeconds) ?? defaults.overrunFailedSeconds
        silenceLevelDBFS = try container.decodeIfPresent(Double.self, forKey: .silenceLevelDBFS) ?? defaults.silenceLevelDBFS
        silenceWarningFraction = try container.decodeIfPresent(Double.self, forKey: .silenceWarningFraction) ?? defaults.silenceWarningFraction
        silenceFailedFraction = try container.decodeIfPresent(Double.self, forKey: .silenceFailedFraction) ?? defaults.silenceFailedFraction
        audioClippingWarningFraction = try container.decodeIfPresent(Double.self, forKey: .audioClippingWarningFraction) ?? defaults.audioClippingWarningFraction
        audioClippingFailedFraction = try container.decodeIfPresent(Double.self, forKey: .audioClippingFailedFraction) ?? defaults.audioClippingFailedFraction
        promptLateWarningSeconds = try container.decodeIfPresent(Double.self, forKey: .promptLateWarningSeconds) ?? defaults.promptLateWarningSeconds
        promptLateFailedSeconds = try container.decodeIfPresent(Double.self, forKey: .promptLateFailedSeconds) ?? defaults.promptLateFailedSeconds
    }
}
