import Audio
import Foundation
import Testing

@Suite("Level meter: RMS and peak in dBFS")
struct LevelMeterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var samples: [Int16]
        var average: Double
        var peak: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "silence", samples: [Int16](repeating: 0, count: 100), average: -160, peak: -160),
        Case(name: "full-scale DC", samples: [Int16](repeating: Int16.min, count: 100), average: 0, peak: 0),
        Case(name: "half-scale square", samples: (0..<100).map { $0 % 2 == 0 ? 16_384 : -16_384 }, average: -6.0206, peak: -6.0206),
        Case(name: "one LSB click", samples: [1] + [Int16](repeating: 0, count: 99), average: -110.3090, peak: -90.3090),
    ]

    @Test("Known signals read their textbook levels", arguments: cases)
    func levels(_ testCase: Case) {
        let samples = testCase.samples
        let average = testCase.average
        let peak = testCase.peak
        var meter = LevelMeter()
        let bytes = TestSignals.bytes(samples)
        bytes.withUnsafeBytes { meter.add($0, format: .s16) }
        #expect(abs(meter.averageDecibels - average) < 0.001)
        #expect(abs(meter.peakDecibels - peak) < 0.001)
    }

    @Test("A full-scale sine averages −3.01 dBFS in every sample format")
    func sineInAllFormats() {
        let count = 16_000
        let values = (0..<count).map { sin(2 * Double.pi * 1_000 * Double($0) / 16_000) }
        var s32: [UInt8] = []
        var float: [UInt8] = []
        for value in values {
            withUnsafeBytes(of: Int32((value * 2_147_483_647).rounded()).littleEndian) { s32 += $0 }
            withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { float += $0 }
        }
        for (bytes, format) in [(s32, MeterSampleFormat.s32), (float, .float)] {
            var meter = LevelMeter()
            bytes.withUnsafeBytes { meter.add($0, format: format) }
            #expect(abs(meter.averageDecibels - -3.0103) < 0.01)
            #expect(abs(meter.peakDecibels) < 0.01)
        }
    }

    @Test("Silence added for a gap lowers the average but not the peak")
    func silenceCounts() {
        var meter = LevelMeter()
        TestSignals.bytes([16_384, -16_384]).withUnsafeBytes { meter.add($0, format: .s16) }
        meter.addSilence(count: 2)
        #expect(abs(meter.averageDecibels - (-6.0206 - 3.0103)) < 0.001)
        #expect(abs(meter.peakDecibels - -6.0206) < 0.001)
        meter.reset()
        #expect(meter.averageDecibels == LevelMeter.floor)
    }
}
