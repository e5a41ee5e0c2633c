import Foundation

/// Accumulates one window of samples and gives its average (RMS) and peak level in dBFS.
///
/// Full scale is 1.0 (Int16 samples are divided by 32768, Int32 by 2³¹), so a full-scale
/// square wave reads 0 dBFS and a full-scale sine −3.01 dBFS. Silence reads `floor`
/// (−160 dBFS, the bottom of Apple's meter range that SageResearch data uses).
public struct LevelMeter: Sendable, Hashable {
    /// The level reported for silence.
    public static let floor = -160.0

    public private(set) var sumOfSquares = 0.0
    public private(set) var peak = 0.0
    public private(set) var sampleCount = 0

    public init() {}

    /// 20·log10(amplitude), clamped to `floor`.
    public static func decibelsFullScale(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return floor }
        return max(20 * log10(amplitude), floor)
    }

    /// RMS level of the window in dBFS.
    public var averageDecibels: Double {
        sampleCount == 0 ? Self.floor : Self.decibelsFullScale((sumOfSquares / Double(sampleCount)).squareRoot())
    }

    /// Largest absolute sample of the window in dBFS.
    public var peakDecibels: Double { Self.decibelsFullScale(peak) }

    /// Adds samples already scaled to [−1, 1].
    @inline(__always)
    public mutating func add(normalized value: Double) {
        sumOfSquares += value * value
        let magnitude = value.magnitude
        if magnitude > peak { peak = magnitude }
        sampleCount += 1
    }

    /// Adds `count` zero samples (a recovered gap filled with silence).
    public mutating func addSilence(count: Int) {
        sampleCount += count
    }

    /// Adds interleaved little-endian samples of `format` (all channels count alike).
    public mutating func add(_ bytes: UnsafeRawBufferPointer, format: MeterSampleFormat) {
        switch format {
        case .s16:
            for index in stride(from: 0, to: bytes.count - 1, by: 2) {
                let raw = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: Int16.self))
                add(normalized: Double(raw) / 32768)
            }
        case .s32:
            for index in stride(from: 0, to: bytes.count - 3, by: 4) {
                let raw = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: Int32.self))
                add(normalized: Double(raw) / 2_147_483_648)
            }
        case .float:
            for index in stride(from: 0, to: bytes.count - 3, by: 4) {
                let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                add(normalized: Double(Float(bitPattern: bits)))
            }
        }
    }

    /// Starts a new window.
    public mutating func reset() {
        sumOfSquares = 0
        peak = 0
        sampleCount = 0
    }
}
