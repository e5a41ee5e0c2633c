/// The sample encodings `LevelMeter` reads.
public enum MeterSampleFormat: Sendable, Hashable {
    case s16, s32, float
}
