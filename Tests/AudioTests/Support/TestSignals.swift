import Foundation
import SampleFiles
import SystemPackage

/// Test signals generated in code, with their expected levels computed independently of the
/// recorder's meter.
enum TestSignals {
    /// Interleaved S16_LE samples as raw bytes.
    static func bytes(_ samples: [Int16]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(value & 0xFF))
            bytes.append(UInt8(value >> 8))
        }
        return bytes
    }

    /// Writes `samples` as a 16-bit mono WAV at 22050 Hz, the rate voice clips are played at.
    static func writeClip(_ samples: [Int16], to path: String) throws {
        let writer = try WAVFileWriter(path: FilePath(path), encoding: .integer, channels: 1, sampleRate: 22_050, bitsPerSample: 16)
        try bytes(samples).withUnsafeBytes { try writer.append($0) }
        try writer.close()
    }

    static func sine(frequency: Double, amplitude: Double, seconds: Double, rate: Int) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { index in
            Int16((amplitude * 32767 * sin(2 * .pi * frequency * Double(index) / Double(rate))).rounded())
        }
    }

    static func square(amplitude: Int16, seconds: Double, rate: Int, period: Int = 40) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { index in (index / (period / 2)) % 2 == 0 ? amplitude : -amplitude }
    }

    /// RMS and peak in dBFS (full scale 32768), floor −160, computed directly.
    static func expectedLevels(_ samples: ArraySlice<Int16>) -> (average: Double, peak: Double) {
        let squares = samples.reduce(0.0) { $0 + (Double($1) / 32768) * (Double($1) / 32768) }
        let rms = (squares / Double(samples.count)).squareRoot()
        let peak = samples.map { abs(Double($0)) / 32768 }.max() ?? 0
        func decibels(_ value: Double) -> Double { value > 0 ? max(20 * log10(value), -160) : -160 }
        return (decibels(rms), decibels(peak))
    }

    /// Reads an S16_LE raw or WAV-data byte range back into samples.
    static func samples(_ bytes: ArraySlice<UInt8>) -> [Int16] {
        stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }
}
