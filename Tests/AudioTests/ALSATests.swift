import TestSupport
import Clocks
import ALSA
import Foundation
import Logging
import Testing

@Suite("ALSA PCMs through type-file devices")
struct ALSATests {
    let logger = Logger(label: "test.alsa")

    @Test("Capture returns the infile's bytes exactly, with the negotiated parameters")
    func captureIsByteExact() throws {
        let directory = AudioTestEnvironment.scratch("capture")
        let input = directory.appendingPathComponent("in.raw")
        let samples = TestSignals.sine(frequency: 440, amplitude: 0.7, seconds: 1, rate: 16_000)
        try Data(TestSignals.bytes(samples)).write(to: input)

        let pcm = try PCM(name: "test_cap:FILE=\(input.path)", direction: .capture, logger: logger)
        let negotiated = try pcm.configure(HardwareParameters(rate: 16_000, channels: 1, format: .s16LE, periodFrames: 320, bufferFrames: 2_560))
        #expect(negotiated.rate == 16_000)
        #expect(negotiated.periodFrames > 0 && negotiated.bufferFrames >= negotiated.periodFrames)
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: negotiated.periodFrames * 2)
        while read.count < 8_000 * 2 {
            let result = try buffer.withUnsafeMutableBytes { try pcm.read(into: $0.baseAddress!, frames: negotiated.periodFrames) }
            #expect(result.gap == nil)
            read += buffer[0..<(result.frames * 2)]
        }
        #expect(read == Array(TestSignals.bytes(samples).prefix(read.count)))
    }

    @Test("Playback writes exactly the frames given")
    func playbackIsByteExact() throws {
        let directory = AudioTestEnvironment.scratch("playback")
        let output = directory.appendingPathComponent("out.raw")
        let samples = TestSignals.square(amplitude: 12_000, seconds: 0.5, rate: 22_050)
        do {
            let pcm = try PCM(name: "test_play:FILE=\(output.path)", direction: .playback, logger: logger)
            try pcm.configure(HardwareParameters(rate: 22_050, channels: 1, format: .s16LE, periodFrames: 256, bufferFrames: 2_048))
            let result = try samples.withUnsafeBytes { try pcm.write(from: $0.baseAddress!, frames: samples.count) }
            #expect(result.frames == samples.count)
            try pcm.drain()
            pcm.close()
        }
        #expect(try [UInt8](Data(contentsOf: output)) == TestSignals.bytes(samples))
    }

    @Test("Failures carry snd_strerror's text and a hint", arguments: [
        ("no_such_pcm_anywhere", "No such file or directory"),
        ("test_cap:FILE=/nonexistent/dir/in.raw", "No such file or directory"),
    ])
    func errorsAreTyped(name: String, reason: String) throws {
        _ = AudioTestEnvironment.directory
        do {
            _ = try PCM(name: name, direction: .capture, logger: logger)
            Issue.record("Opening \(name) should fail")
        } catch {
            #expect(error.code < 0)
            #expect(error.reason.contains(reason))
            #expect(error.description.contains(name))
            #expect(error.description.contains("activetaskctl devices"))
        }
    }

    @Test("Device listing probes the null PCM's capabilities")
    func listsDevices() throws {
        _ = AudioTestEnvironment.directory
        let devices = try AudioDevices.list(logger: logger)
        let null = try #require(devices.first { $0.name == "null" })
        let capture = try #require(null.capabilities.first { $0.direction == .capture })
        #expect(capture.error == nil)
        #expect(Set(capture.formats) == Set(SampleFormat.allCases))
        #expect((capture.minimumRate ?? .max) <= 16_000 && (capture.maximumRate ?? 0) >= 48_000)
        #expect(devices.contains { $0.name == "default" })
    }

    @Test("Stream timestamps convert to CLOCK_BOOTTIME near now")
    func timestampsAreMonotonic() throws {
        _ = AudioTestEnvironment.directory
        let before = RecordingClock.monotonic()
        let pcm = try PCM(name: "null", direction: .playback, logger: logger)
        try pcm.configure(HardwareParameters(rate: 16_000, channels: 1, format: .s16LE))
        let status = try pcm.status()
        #expect(status.timestamp >= before - 0.001 && status.timestamp <= RecordingClock.monotonic() + 0.001)
        #expect(abs(RecordingClock.uptime(ofMonotonic: status.timestamp) - RecordingClock.uptime()) < 0.5)
    }
}
