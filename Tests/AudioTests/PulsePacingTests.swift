import ALSA
import AsyncActions
import Audio
import Foundation
import Logging
import SampleFiles
import SystemPackage
import TaskModel
import Testing
import Voice

/// Real-time behaviour, through a PulseAudio null sink and the ALSA pulse plugin. Slow (seconds
/// each), so few; serialized because they share one server.
@Suite("Real-time pacing through PulseAudio", .serialized, .enabled(if: AudioTestEnvironment.hasPulse, "needs pulseaudio and libasound2-plugins"))
struct PulsePacingTests {
    let logger = Logger(label: "test.pulse")

    /// Records `seconds` of the null sink's monitor on a dedicated thread, keeping each read's
    /// first-frame timestamp (CLOCK_MONOTONIC).
    final class MonitorRecording: @unchecked Sendable {
        let rate = 22_050
        private(set) var samples: [Int16] = []
        private(set) var reads: [(start: Int, timestamp: Double)] = []
        private(set) var error: (any Error)?
        private var thread: IOThread?

        init(device: String, seconds: Double, logger: Logger) throws {
            let pcm = try PCM(name: device, direction: .capture, logger: logger)
            let parameters = try pcm.configure(HardwareParameters(rate: rate, channels: 1, format: .s16LE, periodFrames: 256, bufferFrames: 4_096))
            let total = Int(seconds * Double(rate))
            samples.reserveCapacity(total + parameters.periodFrames)
            thread = IOThread(name: "monitor") { [self] in
                var buffer = [Int16](repeating: 0, count: parameters.periodFrames)
                do {
                    while samples.count < total {
                        let result = try buffer.withUnsafeMutableBytes { try pcm.read(into: $0.baseAddress!, frames: parameters.periodFrames) }
                        reads.append((samples.count, result.firstFrameTimestamp))
                        samples += buffer[0..<result.frames]
                    }
                } catch {
                    self.error = error
                }
                pcm.close()
            }
        }

        func finished() async { await thread?.finished() }

        /// CLOCK_MONOTONIC time of the first sample louder than `threshold` after `after`.
        func firstLoudSample(after: Double, threshold: Int16 = 2_000) -> Double? {
            for (index, read) in reads.enumerated() {
                let end = index + 1 < reads.count ? reads[index + 1].start : samples.count
                for position in read.start..<end {
                    let time = read.timestamp + Double(position - read.start) / Double(rate)
                    if time >= after, abs(Int(samples[position])) > Int(threshold) { return time }
                }
            }
            return nil
        }
    }

    @Test("Prompts are heard within 50 ms of their scheduled second")
    func promptOnsetsAreOnTime() async throws {
        let server = try PulseServer.start(.main)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-onset")
        var clips: [String: String] = [:]
        for (index, frequency) in [600.0, 900.0, 1_200.0].enumerated() {
            let path = directory.appendingPathComponent("tone\(index).wav").path
            let writer = try WAVFileWriter(path: FilePath(path), encoding: .integer, channels: 1, sampleRate: 22_050, bitsPerSample: 16)
            try TestSignals.bytes(TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 0.3, rate: 22_050)).withUnsafeBytes { try writer.append($0) }
            try writer.close()
            clips["prompt \(index)"] = path
        }
        let monitor = try MonitorRecording(device: "test_pulse_cap", seconds: 7, logger: logger)
        let prompter = try VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_pulse_play", clips: clips), logger: logger)
        // A session's prompter runs before the first timed step (overview, instructions); give
        // the warm stream that time to settle its latency.
        try await Task.sleep(for: .seconds(2))
        let times = [1.0, 2.0, 3.0]
        try await prompter.prepare(stepPath: "Task/active", prompts: times.enumerated().map { SpokenPrompt(time: $1, text: "prompt \($0)") })
        let zero = RecordingTime.monotonic()
        await prompter.startTimer(atMonotonic: zero)
        var onsets: [(scheduled: Double, heard: Double)] = []
        for await event in prompter.events {
            if case .promptStarted(_, _, let scheduled?, let onset) = event { onsets.append((scheduled, onset)) }
            if onsets.count == times.count { break }
        }
        await monitor.finished()
        await prompter.shutdown()
        let offset = RecordingTime.boottimeOffset()
        for (index, onset) in onsets.enumerated() {
            let scheduledMonotonic = zero + times[index]
            #expect(abs(onset.scheduled - offset - scheduledMonotonic) < 0.005)
            // From the playback stream's timestamps.
            let streamError = onset.heard - onset.scheduled
            // From what the sink's monitor recorded, stamped by the capture stream.
            let heard = monitor.firstLoudSample(after: scheduledMonotonic - 0.2)
            let monitorError = heard.map { $0 - scheduledMonotonic }
            print("prompt \(index): playback-stream error \(String(format: "%.1f", streamError * 1000)) ms, monitor error \(monitorError.map { String(format: "%.1f", $0 * 1000) } ?? "none") ms")
            #expect(abs(streamError) < 0.05)
            #expect(monitorError.map { abs($0) < 0.05 } == true)
        }
        #expect(monitor.error == nil)
    }
}
