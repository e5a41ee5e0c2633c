/// The little-endian sample formats this project uses.
public enum SampleFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Signed 16-bit integer (`S16_LE`).
    case s16LE = "S16_LE"
    /// Signed 32-bit integer (`S32_LE`).
    case s32LE = "S32_LE"
    /// 32-bit IEEE float (`FLOAT_LE`).
    case floatLE = "FLOAT_LE"

    /// Bytes in one sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .s16LE: 2
        case .s32LE, .floatLE: 4
        }
    }
}
