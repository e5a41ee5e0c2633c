import TestSupport
import Clocks
import ALSA
import Foundation
import Logging
import SampleFiles
import SystemPackage
import Testing
import Voice

@Suite("Voice prompts: synthesis, clips and scheduling on type-file playback PCMs")
struct VoiceTests {
    let logger = Logger(label: "test.voice")

    /// Runs `body` with a prompter playing into a raw file, then shuts it down and returns the
    /// events and the bytes played.
    private func withPrompter(
        _ name: String, configuration: (String) -> VoiceConfiguration = { VoiceConfiguration(playbackDevice: $0) },
        until finishedCount: Int,
        _ body: (VoicePrompter) async throws -> Void
    ) async throws -> (events: [VoiceEvent], played: [Int16]) {
        let directory = AudioTestEnvironment.scratch(name)
        let output = directory.appendingPathComponent("played.raw")
        let prompter = try await VoicePrompter(configuration: configuration("test_play:FILE=\(output.path)"), logger: logger)
        let stream = prompter.subscribe()
        try await body(prompter)
        var events: [VoiceEvent] = []
        var finished = 0
        for await event in stream {
            events.append(event)
            if case .promptFinished = event { finished += 1 }
            if finished == finishedCount { break }
        }
        await prompter.shutdown()
        let bytes = try Data(contentsOf: output)
        return (events, TestSignals.samples([UInt8](bytes)[...]))
    }

    /// Where `needle` starts in `haystack`, if it is there.
    private func find(_ needle: [Int16], in haystack: [Int16], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == first, Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    @Test("espeak-ng synthesises 16-bit mono speech at 22050 Hz")
    func synthesises() async throws {
        _ = AudioTestEnvironment.directory
        let clip = try await SpeechSynthesizer(logger: logger).synthesize("Stand still for thirty seconds.")
        #expect(clip.sampleRate == 22_050)
        #expect(clip.duration > 1 && clip.duration < 5)
        #expect(clip.samples.contains { abs(Int($0)) > 3_000 })
    }

    /// A held stream on a device that takes frames as fast as they come must still write its
    /// silence at the clock's pace (once, it wrote without end).
    @Test("A held stream on an unpaced file device writes about as much silence as time passes")
    func heldStreamOnAnUnpacedDeviceIsPacedByTheClock() async throws {
        _ = AudioTestEnvironment.directory
        let output = AudioTestEnvironment.scratch("held-file").appendingPathComponent("played.raw")
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_play:FILE=\(output.path)"), logger: logger)
        await prompter.holdStream(true)
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(1))
        await prompter.holdStream(false)
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        await prompter.shutdown()
        let seconds = Double((try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0) / (22_050 * 2)
        print(String(format: "held %.2f s on a file device: %.2f s of silence written", elapsed, seconds))
        // The 50 ms held ahead, and the hold's release within a wake-up (25 ms), either side.
        #expect(seconds > 0.5 && seconds < elapsed + TestTiming.tolerance(0.5))
    }

    @Test("Each subscriber has a stream of its own: one that goes away leaves the others and later ones hearing every prompt")
    func subscribersAreIndependent() async throws {
        _ = AudioTestEnvironment.directory
        let output = AudioTestEnvironment.scratch("subscribers").appendingPathComponent("played.raw")
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_play:FILE=\(output.path)"), logger: logger)
        let staying = prompter.subscribe()
        // A first session's stream, cancelled as a session's is when it ends.
        let leavingStream = prompter.subscribe()
        let leaving = Task { for await _ in leavingStream {} }
        #expect(prompter.subscriberCount == 2)
        leaving.cancel()
        await leaving.value
        #expect(prompter.subscriberCount == 1)
        let later = prompter.subscribe()
        try await prompter.speak("Now.")
        func firstText(_ stream: AsyncStream<VoiceEvent>) async -> String? {
            for await event in stream {
                if case .promptStarted(_, let text, _, _, _) = event { return text }
            }
            return nil
        }
        #expect(await firstText(staying) == "Now.")
        #expect(await firstText(later) == "Now.")
        await prompter.shutdown()
        #expect(prompter.subscriberCount == 0)
    }

    @Test("say plays the synthesised prompt whole, through the playback PCM")
    func sayPlaysPrompt() async throws {
        _ = AudioTestEnvironment.directory
        let text = "Put the phone in your pocket."
        // espeak-ng carries voice state (pitch flutter) from one utterance to the next, so two
        // syntheses of a text differ slightly in length and waveform: compare duration and
        // level, not bytes (the byte-exact playback path is checked with WAV clips below).
        let expected = try await SpeechSynthesizer(logger: logger).synthesize(text)
        let (events, played) = try await withPrompter(
            "say", until: 1
        ) { try await $0.speak(text) }
        #expect(abs(played.count - expected.samples.count) < expected.samples.count / 20)
        func rms(_ samples: [Int16]) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        }
        #expect(abs(rms(played) / rms(expected.samples) - 1) < 0.2)
        #expect(events.contains { if case .promptStarted(_, let said, nil, _, _) = $0 { return said == text }; return false })
    }

    private func writeClip(_ samples: [Int16], to path: String) throws {
        try TestSignals.writeClip(samples, to: path)
    }

    @Test("A configured WAV clip replaces synthesis, looked up by key or by text")
    func playsConfiguredClip() async throws {
        let directory = AudioTestEnvironment.scratch("clip")
        let clipPath = directory.appendingPathComponent("go.wav").path
        let samples = TestSignals.square(amplitude: 10_000, seconds: 0.3, rate: 22_050)
        try writeClip(samples, to: clipPath)
        let (_, played) = try await withPrompter(
            "clip", configuration: { VoiceConfiguration(playbackDevice: $0, clips: ["start": clipPath]) }, until: 1
        ) { prompter in
            try await prompter.prepare(stepPath: "Task/walk", prompts: [SpokenPrompt(time: 0, text: "Start walking.", key: "start")])
            await prompter.startTimer()
        }
        let found = find(samples, in: played) != nil
        #expect(found)
    }

    @Test("A prompt due while another plays is queued right behind it, not dropped")
    func overlappingPromptsQueue() async throws {
        let directory = AudioTestEnvironment.scratch("overlap-clips")
        let first = TestSignals.square(amplitude: 9_000, seconds: 0.4, rate: 22_050)
        let second = TestSignals.sine(frequency: 700, amplitude: 0.3, seconds: 0.2, rate: 22_050)
        try writeClip(first, to: directory.appendingPathComponent("first.wav").path)
        try writeClip(second, to: directory.appendingPathComponent("second.wav").path)
        let clips = ["Walk back.": directory.appendingPathComponent("first.wav").path,
                     "Five": directory.appendingPathComponent("second.wav").path]
        let (events, played) = try await withPrompter(
            "overlap", configuration: { VoiceConfiguration(playbackDevice: $0, clips: clips) }, until: 2
        ) { prompter in
            try await prompter.prepare(stepPath: "Task/walk", prompts: [
                SpokenPrompt(time: 0.2, text: "Walk back."),
                SpokenPrompt(time: 0.3, text: "Five"),
            ])
            await prompter.startTimer()
        }
        let firstAt = find(first, in: played)
        let secondAt = firstAt.flatMap { find(second, in: played, from: $0 + first.count) }
        #expect(firstAt != nil && secondAt == firstAt.map { $0 + first.count }, "first at \(String(describing: firstAt)), second at \(String(describing: secondAt))")
        let onsets = events.compactMap { event -> (String, Double?, Double)? in
            if case .promptStarted(_, let text, let scheduled, let onset, _) = event { return (text, scheduled, onset) }
            return nil
        }
        #expect(onsets.map(\.0) == ["Walk back.", "Five"])
        guard onsets.count == 2 else { return }
        // The second was heard late, exactly when the first ended.
        #expect(abs(onsets[1].2 - (onsets[0].2 + 0.4)) < 0.002)
        #expect(onsets[1].2 > (onsets[1].1 ?? 0))
    }

    /// Whether this process has `path` open (a `type file` PCM keeps its output file open
    /// exactly while the PCM is open).
    private static func hasOpen(_ path: String) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
    }

    /// The silence the player writes ahead of a timed clip, at most (PromptStreamPolicy.preRoll).
    private static let preRollFrames = PromptStreamPolicy(sampleRate: 22_050).frames(for: PromptStreamPolicy(sampleRate: 22_050).preRoll)

    /// Two recognisable clips (0.3 s square, 0.2 s sine) configured for the texts "One" and "Two".
    private func twoClips(_ name: String) throws -> (first: [Int16], second: [Int16], clips: [String: String]) {
        let directory = AudioTestEnvironment.scratch(name)
        let first = TestSignals.square(amplitude: 9_000, seconds: 0.3, rate: 22_050)
        let second = TestSignals.sine(frequency: 700, amplitude: 0.3, seconds: 0.2, rate: 22_050)
        let paths = [directory.appendingPathComponent("first.wav").path, directory.appendingPathComponent("second.wav").path]
        try writeClip(first, to: paths[0])
        try writeClip(second, to: paths[1])
        return (first, second, ["One": paths[0], "Two": paths[1]])
    }

    @Test("Between two timed prompts no frame is written: only a short pre-roll before each clip")
    func noSilenceBetweenPrompts() async throws {
        let (first, second, clips) = try twoClips("gap-clips")
        // The window keeps the PCM open across the 1 s gap: a `type file` PCM truncates its
        // file when reopened, and here every byte written must stay countable.
        let (_, played) = try await withPrompter(
            "gap", configuration: { VoiceConfiguration(playbackDevice: $0, clips: clips, streamKeepOpenWindow: 10) }, until: 2
        ) { prompter in
            try await prompter.prepare(stepPath: "Task/stand", prompts: [SpokenPrompt(time: 0.3, text: "One"), SpokenPrompt(time: 1.6, text: "Two")])
            await prompter.startTimer()
        }
        let firstAt = try #require(find(first, in: played))
        let secondAt = try #require(find(second, in: played, from: firstAt + first.count))
        // A stream kept running would have written the whole second between the clips.
        #expect(firstAt <= Self.preRollFrames)
        #expect(secondAt - (firstAt + first.count) <= Self.preRollFrames, "\(secondAt - firstAt - first.count) frames between the clips")
        #expect(played.count == secondAt + second.count, "nothing after the last clip")
        #expect(played[0..<firstAt].allSatisfy { $0 == 0 } && played[(firstAt + first.count)..<secondAt].allSatisfy { $0 == 0 })
    }

    @Test("The playback PCM is closed while no prompt is near, and opened again ahead of the next")
    func closesBetweenDistantPrompts() async throws {
        let (first, second, clips) = try twoClips("close-clips")
        let output = AudioTestEnvironment.scratch("close").appendingPathComponent("played.raw").path
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_play:FILE=\(output)", clips: clips), logger: logger)
        let events = prompter.subscribe()
        try await prompter.prepare(stepPath: "Task/stand", prompts: [SpokenPrompt(time: 0.3, text: "One"), SpokenPrompt(time: 3.3, text: "Two")])
        let zero = RecordingClock.monotonic()
        // Watched from a thread of its own, every 2 ms, so a starved test task (the suite under
        // a sanitizer) cannot miss the moments: the first clip plays from 0.3 s to about
        // 0.65 s; the second is 2.6 s away, beyond the 1.5 s window, so the PCM closes after the
        // first and reopens 0.5 s before the second (2.8 s).
        let watching = Task {
            try await onOwnThread { () -> (open: Bool, closed: Bool) in
                var sawOpen = false
                var sawClosed = false
                while case let now = RecordingClock.monotonic() - zero, now < 2.7 {
                    let open = Self.hasOpen(output)
                    if now < 1.2 && open { sawOpen = true }
                    if now >= 1.0 && !open { sawClosed = true }
                    usleep(2_000)
                }
                return (sawOpen, sawClosed)
            }
        }
        await prompter.startTimer(atMonotonic: zero)
        var finished = 0
        for await event in events {
            if case .promptFinished = event { finished += 1 }
            if finished == 2 { break }
        }
        let (openWhilePrompting, closedBetween) = try await watching.value
        await prompter.shutdown()
        #expect(openWhilePrompting)
        #expect(closedBetween)
        // Reopening a `type file` PCM truncates its file: what is left is the second clip after
        // its pre-roll, so the first was written before a close.
        let played = TestSignals.samples([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))[...])
        let secondAt = try #require(find(second, in: played))
        #expect(secondAt <= Self.preRollFrames)
        #expect(find(first, in: played) == nil)
    }

    @Test("Pausing holds unheard prompts and speaks the warning; resuming shifts them by the pause")
    func pauseShiftsSchedule() async throws {
        _ = AudioTestEnvironment.directory
        let clock = ContinuousClock()
        var pausedAt = 0.0
        var resumedAt = 0.0
        // Timer seconds left for the halfway prompt at the pause: more under a sanitizer, whose
        // slower actor hops could otherwise land the pause after the prompt (TestTiming).
        let left = TestTiming.tolerance(0.6)
        let (events, _) = try await withPrompter(
            "pause", configuration: { VoiceConfiguration(playbackDevice: $0, pauseWarning: "Paused.") }, until: 3
        ) { prompter in
            try await prompter.prepare(stepPath: "Task/stand", prompts: [
                SpokenPrompt(time: 0, text: "Stand still."),
                SpokenPrompt(time: 0.4 + left, text: "Halfway."),
            ])
            await prompter.startTimer()
            try await clock.sleep(for: .milliseconds(400))
            pausedAt = RecordingClock.uptime()
            await prompter.pauseTimer(speakWarning: true)
            try await clock.sleep(for: .milliseconds(1_500))
            resumedAt = RecordingClock.uptime()
            await prompter.resumeTimer()
        }
        let started = events.compactMap { event -> (String, Double)? in
            if case .promptStarted(_, let text, _, let onset, _) = event { return (text, onset) }
            return nil
        }
        #expect(started.map(\.0) == ["Stand still.", "Paused.", "Halfway."])
        let halfway = try #require(started.last?.1)
        // `left` of the timer was left at the pause; generous margins for a loaded machine (wider
        // under a sanitizer, TestTiming), but never heard before the resume.
        #expect(halfway > resumedAt + max(0, left - TestTiming.tolerance(0.2)) && halfway < resumedAt + left + TestTiming.tolerance(0.4))
        #expect(halfway > pausedAt + 1.5)
    }

    @Test("Start and finish sounds are built-in tones unless a clip is configured")
    func playsSounds() async throws {
        _ = AudioTestEnvironment.directory
        let (events, played) = try await withPrompter("sounds", until: 2) { prompter in
            try await prompter.play(.start)
            try await prompter.play(.finish)
        }
        let start = AudioClip.startSound(sampleRate: 22_050)
        let finish = AudioClip.finishSound(sampleRate: 22_050)
        let startAt = find(start.samples, in: played)
        let finishAt = startAt.flatMap { find(finish.samples, in: played, from: $0 + start.samples.count) }
        #expect(startAt != nil && finishAt != nil)
        #expect(events.filter { if case .promptFinished = $0 { return true }; return false }.count == 2)
    }

    @Test("WAV clips of other formats become mono 22050 Hz", arguments: [(8_000, 2, 16), (44_100, 1, 32), (22_050, 1, 16)])
    func convertsClips(rate: Int, channels: Int, bits: Int) throws {
        let frames = rate / 10
        var data: [UInt8] = []
        for frame in 0..<frames {
            let value = sin(2 * Double.pi * 440 * Double(frame) / Double(rate)) * 0.5
            for _ in 0..<channels {
                if bits == 16 {
                    withUnsafeBytes(of: Int16((value * 32767).rounded()).littleEndian) { data += $0 }
                } else {
                    withUnsafeBytes(of: Int32((value * 2_147_483_647).rounded()).littleEndian) { data += $0 }
                }
            }
        }
        let header = WAVHeader(encoding: .integer, channels: channels, sampleRate: rate, bitsPerSample: bits, dataSize: data.count)
        let clip = try AudioClip(wavBytes: header.encoded() + data).resampled(to: 22_050)
        #expect(clip.sampleRate == 22_050)
        #expect(abs(clip.samples.count - 2_205) <= 1)
        let peak = clip.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 15_000 && peak <= 16_500)
    }
}
