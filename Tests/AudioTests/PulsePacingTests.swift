import TestSupport
import Clocks
import ALSA
import AsyncActions
import Audio
import RecorderConformance
import BlockingCalls
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

    /// A microphone recorder that keeps its audio, writing `<identifier>.wav` into `directory`.
    func microphone(_ identifier: String, in directory: URL, _ settings: MicrophoneSettings) -> MicrophoneRecorder {
        MicrophoneRecorder(
            configuration: AudioRecorderConfiguration(identifier: identifier, saveAudioFile: true),
            output: RecorderOutput(directory: directory, baseName: identifier, taskRunUUID: UUID(), ownerPath: "Task", logger: logger),
            settings: settings)
    }

    /// Records `seconds` of the null sink's monitor on a dedicated thread, keeping each read's
    /// first-frame timestamp (CLOCK_MONOTONIC).
    final class MonitorRecording: @unchecked Sendable {
        let rate = 22_050
        private(set) var samples: [Int16] = []
        private(set) var reads: [(start: Int, timestamp: Double)] = []
        private(set) var error: (any Error)?
        private var thread: DedicatedThread?

        init(device: String, seconds: Double, logger: Logger) throws {
            let pcm = try PCM(name: device, direction: .capture, logger: logger)
            let parameters = try pcm.configure(HardwareParameters(rate: rate, channels: 1, format: .s16LE, periodFrames: 256, bufferFrames: 4_096))
            let total = Int(seconds * Double(rate))
            samples.reserveCapacity(total + parameters.periodFrames)
            thread = DedicatedThread(name: "monitor") { [self] _ in
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
        let server = try await PulseServer.start(.main)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-onset")
        var clips: [String: String] = [:]
        for (index, frequency) in [600.0, 900.0, 1_200.0].enumerated() {
            let path = directory.appendingPathComponent("tone\(index).wav").path
            try TestSignals.writeClip(TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 0.3, rate: 22_050), to: path)
            clips["prompt \(index)"] = path
        }
        let monitor = try MonitorRecording(device: "test_pulse_cap", seconds: 7, logger: logger)
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_pulse_play", clips: clips), logger: logger)
        // Past the keep-open window, so each prompt meets a closed PCM (opened 0.5 s ahead).
        let events = prompter.subscribe()
        try await Task.sleep(for: .seconds(2))
        let times = [1.0, 2.0, 3.0]
        try await prompter.prepare(stepPath: "Task/active", prompts: times.enumerated().map { SpokenPrompt(time: $1, text: "prompt \($0)") })
        let zero = RecordingClock.monotonic()
        await prompter.startTimer(atMonotonic: zero)
        var onsets: [(scheduled: Double, heard: Double)] = []
        for await event in events {
            if case .promptStarted(_, _, let scheduled?, let onset, _) = event { onsets.append((scheduled, onset)) }
            if onsets.count == times.count { break }
        }
        await monitor.finished()
        await prompter.shutdown()
        let offset = RecordingClock.boottimeOffset()
        for (index, onset) in onsets.enumerated() {
            let scheduledMonotonic = zero + times[index]
            #expect(abs(onset.scheduled - offset - scheduledMonotonic) < 0.005)
            // From the playback stream's timestamps.
            let streamError = onset.heard - onset.scheduled
            // From what the sink's monitor recorded, stamped by the capture stream.
            let heard = monitor.firstLoudSample(after: scheduledMonotonic - 0.2)
            let monitorError = heard.map { $0 - scheduledMonotonic }
            print("prompt \(index): playback-stream error \(String(format: "%.1f", streamError * 1000)) ms, monitor error \(monitorError.map { String(format: "%.1f", $0 * 1000) } ?? "none") ms")
            // 50 ms, the prompt-onset bound, widened under a sanitizer (TestTiming).
            #expect(abs(streamError) < TestTiming.tolerance(0.05))
            #expect(monitorError.map { abs($0) < TestTiming.tolerance(0.05) } == true)
        }
        #expect(monitor.error == nil)
    }

    /// A step's `start` prompt is spoken as the step shows, on a playback PCM that has been
    /// closed since the last prompt. The bound: opening and configuring the pulse PCM takes about
    /// 1 ms and a stopped stream starts within 15 ms (docs/benchmarks.md, "Voice prompt onsets"),
    /// the monitor's own timestamps err by about 10 ms; 50 ms is the issue's onset target.
    @Test("A start prompt on a closed stream is heard within 50 ms of its step being shown")
    func startPromptOnClosedStream() async throws {
        let server = try await PulseServer.start(.main)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-start")
        let path = directory.appendingPathComponent("start.wav").path
        try TestSignals.writeClip(TestSignals.sine(frequency: 800, amplitude: 0.5, seconds: 0.5, rate: 22_050), to: path)
        let monitor = try MonitorRecording(device: "test_pulse_cap", seconds: 6, logger: logger)
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_pulse_play", clips: ["start": path]), logger: logger)
        let prompt = SpokenPrompt(time: 0, text: "Start now.", key: "start")
        await prompter.preload([prompt])
        let events = prompter.subscribe()
        // Past the 1.5 s keep-open window: the PCM the prompter opened to check it is closed.
        try await Task.sleep(for: .seconds(2.5))
        let shown = RecordingClock.monotonic()
        try await prompter.speak(prompt.text, stepPath: "Task/step", key: prompt.key, scheduledAtMonotonic: shown)
        var started: (scheduled: Double?, onset: Double)?
        for await event in events {
            if case .promptStarted(_, _, let scheduled, let onset, _) = event {
                started = (scheduled, onset)
                break
            }
        }
        await monitor.finished()
        await prompter.shutdown()
        let offset = RecordingClock.boottimeOffset()
        let onset = try #require(started)
        let scheduled = try #require(onset.scheduled)
        #expect(abs(scheduled - offset - shown) < 0.001, "the start prompt is reported against its step's time")
        let streamError = onset.onset - scheduled
        let heard = monitor.firstLoudSample(after: shown - 0.2)
        let monitorError = heard.map { $0 - shown }
        print("start prompt: playback-stream error \(String(format: "%.1f", streamError * 1000)) ms, monitor error \(monitorError.map { String(format: "%.1f", $0 * 1000) } ?? "none") ms")
        #expect(streamError >= 0 && streamError < 0.05)
        #expect(monitorError.map { $0 > -0.02 && $0 < 0.05 } == true)
        #expect(monitor.error == nil)
    }

    @Test("A 10 s recording is paced by the device: 10 s of audio in 10 s ± 2 % of wall time")
    func recordingIsPaced() async throws {
        let server = try await PulseServer.start(.main)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-10s")
        let recorder = microphone("microphone", in: directory, MicrophoneSettings(device: "test_pulse_cap", maximumDuration: 10))
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "Task/record")
        await recorder.waitUntilCaptured()
        let captureEnded = RecordingClock.uptime()
        let results = try await recorder.stop()
        let levelsResult = try #require(fileResults(results).first { $0.relativePath == "microphone_levels.json" })
        let startUptime = try #require(levelsResult.startUptime)
        let wall = captureEnded - startUptime
        print("10 s recording: first frame to last read \(String(format: "%.3f", wall)) s")
        #expect(abs(wall - 10) < 0.2)
        let wav = try Data(contentsOf: directory.appendingPathComponent("microphone.wav"))
        #expect(wav.count == 44 + 10 * 16_000 * 2)
        let levels = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("microphone_levels.json"))) as? [[String: Any]]
        #expect(levels?.count == 10)
        // The monitor of an idle sink is digital silence.
        #expect(levels?.allSatisfy { ($0["peak"] as? Double) == -160 } == true)
    }

    /// The step's `end` prompt is due at the timer's last second, and the session counts it as
    /// spoken by the timer; a playback thread that has not started it when the step ends (a clip
    /// still playing before it, or a machine that stalled) must still play it (docs/audio.md,
    /// "Voice prompts"). Here a 1 s clip holds the due prompt back while the step ends.
    @Test("A step that ends keeps the prompts already due, heard behind the clip before them, and drops those not yet due")
    func endStepKeepsDuePrompts() async throws {
        let server = try await PulseServer.start(.main)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-end-step")
        var clips: [String: String] = [:]
        for (text, seconds) in [("Long", 1.0), ("Due", 0.2), ("Later", 0.2)] {
            let path = directory.appendingPathComponent("\(text).wav").path
            try TestSignals.writeClip(TestSignals.sine(frequency: 700, amplitude: 0.5, seconds: seconds, rate: 22_050), to: path)
            clips[text] = path
        }
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_pulse_play", clips: clips), logger: logger)
        let events = prompter.subscribe()
        try await prompter.prepare(stepPath: "Task/active", prompts: [
            SpokenPrompt(time: 0, text: "Long"), SpokenPrompt(time: 0.1, text: "Due"), SpokenPrompt(time: 60, text: "Later"),
        ])
        let zero = RecordingClock.monotonic()
        await prompter.startTimer(atMonotonic: zero)
        // The step ends once "Due"'s second has come (a condition on the clock, however late).
        while RecordingClock.monotonic() < zero + 0.15 { try await Task.sleep(for: .milliseconds(10)) }
        await prompter.endStep()
        await prompter.finishSpeaking()
        var started: [String] = []
        for await event in events {
            if case .promptStarted(_, let text, _, _, _) = event { started.append(text) }
            if case .playedOut = event { break }
        }
        await prompter.shutdown()
        #expect(started == ["Long", "Due"])
    }

    @Test("A playback underrun from a stalled writer is recovered and its gap reported")
    func underrunIsRecovered() async throws {
        let server = try await PulseServer.start(.main)
        defer { server.stop() }
        let pcm = try PCM(name: "test_pulse_play_xrun", direction: .playback, logger: logger)
        let parameters = try pcm.configure(HardwareParameters(rate: 22_050, channels: 1, format: .s16LE, periodFrames: 256, bufferFrames: 2_048))
        let block = [Int16](repeating: 0, count: parameters.periodFrames)
        let stall = 1.0
        let outcome: (gap: StreamGap?, error: (any Error)?) = await withCheckedContinuation { continuation in
            _ = DedicatedThread(name: "stalled-writer") { _ in
                do {
                    // Run the stream for a second, stall past the buffer, then write again.
                    for _ in 0..<(22_050 / parameters.periodFrames) {
                        _ = try block.withUnsafeBytes { try pcm.write(from: $0.baseAddress!, frames: block.count) }
                    }
                    usleep(UInt32(stall * 1_000_000))
                    var gap: StreamGap?
                    for _ in 0..<20 where gap == nil {
                        gap = try block.withUnsafeBytes { try pcm.write(from: $0.baseAddress!, frames: block.count) }.gap
                    }
                    pcm.close()
                    continuation.resume(returning: (gap, nil))
                } catch {
                    continuation.resume(returning: (nil, error))
                }
            }
        }
        #expect(outcome.error == nil)
        let gap = try #require(outcome.gap)
        print("underrun gap \(String(format: "%.3f", gap.seconds)) s")
        #expect(gap.reason == .underrun)
        #expect(gap.seconds > 0.3 && gap.seconds < stall + 1)
    }

    @Test("A microphone stuck in a read fails by its stop deadline, once, and its thread closes the files when the read returns")
    func stuckReadFailsByTheDeadline() async throws {
        let server = try await PulseServer.start(.secondary)
        defer { server.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-stuck")
        let recorder = microphone("stuck", in: directory, MicrophoneSettings(device: "test_pulse_mic", stopDeadline: .seconds(1)))
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "Task/record")
        try await Task.sleep(for: .seconds(1))
        // The server stops answering (SIGSTOP): the capture thread blocks in snd_pcm_readi once
        // the plugin's buffer is read, as it would inside a deadlocked libpulse (docs/audio.md).
        server.pause()
        try await Task.sleep(for: .seconds(0.5))

        // The stop gives up on the thread after one deadline (the halt after the failure does not
        // wait a second one) and hands back the one error result.
        let before = RecordingClock.monotonic()
        let results = try await recorder.stop()
        let took = RecordingClock.monotonic() - before
        #expect(took >= 1 && took < 1 + TestTiming.tolerance(0.5), "stop took \(took) s")
        let error = try #require(results.first as? ErrorResult, "\(results)")
        #expect(results.count == 1)
        #expect(error.identifier == "stuck_error")
        #expect(error.errorCode == AsyncActionError.Code.timedOut.rawValue, "\(error.errorDescription)")
        #expect(await recorder.status == .failed)

        // The read returns once the server runs again; the thread sees the stop and closes the
        // WAV whole, with the audio from before the stall. (An idle null sink hands its monitor
        // out in large, late chunks, so how much arrived in that second is not asserted.)
        server.resume()
        try await Task.sleep(for: TestTiming.tolerance(.seconds(1)))
        let wav = FilePath(directory.appendingPathComponent("stuck.wav").path)
        #expect(try SampleFileRepair.repairWAV(at: wav) == .alreadyComplete)
        let size = try FileManager.default.attributesOfItem(atPath: wav.string)[.size] as? Int ?? 0
        #expect(size > 44, "the WAV holds no audio")
    }

    @Test("A capture device that fails mid-recording fails only its own controller")
    func failureIsIsolated() async throws {
        let main = try await PulseServer.start(.main)
        defer { main.stop() }
        let failing = try await PulseServer.start(.secondary, sharedMemory: false)
        defer { failing.stop() }
        let directory = AudioTestEnvironment.scratch("pulse-failure")
        func recorder(_ identifier: String, device: String) -> MicrophoneRecorder {
            microphone(identifier, in: directory, MicrophoneSettings(device: device))
        }
        let healthy = recorder("healthy", device: "test_pulse_cap")
        let doomed = recorder("doomed", device: "test_pulse_mic")
        for controller in [healthy, doomed] {
            try await controller.requestPermission()
            try await controller.start(stepPath: "Task/record")
        }
        try await Task.sleep(for: .seconds(1.5))
        failing.crash()  // the second server goes away: its microphone is "unplugged"

        var failure: ErrorResult?
        for await event in doomed.events {
            if case .failed(let result) = event.kind { failure = result }
        }
        #expect(await doomed.status == .failed)
        #expect(failure?.identifier == "doomed_error")
        #expect(failure?.errorCode == AsyncActionError.Code.deviceFailed.rawValue)
        #expect(failure?.errorDescription.contains("test_pulse_mic") == true)
        let doomedResults = try await doomed.stop()
        #expect(doomedResults.allSatisfy { $0 is ErrorResult })

        #expect(await healthy.status == .running)
        try await Task.sleep(for: .seconds(2))
        let results = try await healthy.stop()
        #expect(await healthy.status == .finished)
        #expect(Set(fileResults(results).map(\.relativePath)) == ["healthy.wav", "healthy_levels.json"])
        let levels = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("healthy_levels.json"))) as? [Any]
        #expect((levels?.count ?? 0) >= 2, "the healthy recorder kept recording after the other failed")
        // What the failed recorder captured before the failure is kept, and its WAV is valid.
        #expect(try SampleFileRepair.repairWAV(at: FilePath(directory.appendingPathComponent("doomed.wav").path)) == .alreadyComplete)
    }
}
