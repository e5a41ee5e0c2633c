import ALSA
import Clocks
import Foundation
import Logging
import TestSupport
import Testing
import Voice

/// Prompts on a device that hears everything a known time after it is written (250 ms, a
/// PulseAudio pipe sink read at its own rate by the test, `DelayedPipeSink`): the prompter must
/// place each clip by the delay the device reports, and say how it measured the onset.
/// Serialized: one sink, and real time.
@Suite("Prompts on a device with a known delay", .serialized, .enabled(if: AudioTestEnvironment.hasPulse, "needs pulseaudio and libasound2-plugins"))
struct KnownDelayTests {
    let logger = Logger(label: "test.delayed")

    /// Three tone clips, keyed by the texts `prompt 0`…`prompt 2`.
    func toneClips(in directory: URL) throws -> [String: String] {
        var clips: [String: String] = [:]
        for (index, frequency) in [600.0, 900.0, 1_200.0].enumerated() {
            let path = directory.appendingPathComponent("tone\(index).wav").path
            try TestSignals.writeClip(TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 0.3, rate: 22_050), to: path)
            clips["prompt \(index)"] = path
        }
        return clips
    }

    /// Speaks three timed prompts (1, 2 and 3 s after the timer starts) and returns, per prompt,
    /// its due time, the onset the prompter reported when it finished, how that was measured,
    /// and when the sink's reader heard it (CLOCK_MONOTONIC seconds).
    func speakTimedPrompts(holdingStream: Bool) async throws -> (delay: Double, prompts: [(due: Double, reported: Double, measure: OnsetMeasure, heard: Double?)]) {
        let sink = try await DelayedPipeSink.start()
        defer { sink.stop() }
        let directory = AudioTestEnvironment.scratch("delayed")
        let prompter = try await VoicePrompter(
            configuration: VoiceConfiguration(playbackDevice: "test_pulse_delayed", clips: try toneClips(in: directory),
                                              holdStreamDuringRuns: holdingStream),
            logger: logger)
        let events = prompter.subscribe()
        await prompter.holdStream(holdingStream)
        // Past the keep-open window: without the hold, each prompt meets a closed PCM.
        try await Task.sleep(for: .seconds(2))
        let times = [1.0, 2.0, 3.0]
        try await prompter.prepare(stepPath: "Task/active", prompts: times.enumerated().map { SpokenPrompt(time: $1, text: "prompt \($0)") })
        let zero = RecordingClock.monotonic()
        await prompter.startTimer(atMonotonic: zero)
        var finished: [(onset: Double, measure: OnsetMeasure)] = []
        for await event in events {
            if case .promptFinished(_, _, let onset, _, let measure) = event { finished.append((onset - RecordingClock.boottimeOffset(), measure)) }
            if finished.count == times.count { break }
        }
        // The last clip reaches the reader a delay after it was written.
        try await Task.sleep(for: .seconds(sink.delay + 0.2))
        await prompter.shutdown()
        #expect(sink.error == nil)
        let heard = sink.onsets
        let prompts = times.enumerated().map { index, time in
            let due = zero + time
            return (due, finished[index].onset, finished[index].measure, heard.first { abs($0 - due) < 0.5 })
        }
        return (sink.delay, prompts)
    }

    @Test("Timed prompts on a held stream to a 250 ms device are heard within 50 ms of their second, as reported")
    func timedPromptsOnAHeldStream() async throws {
        let (delay, prompts) = try await speakTimedPrompts(holdingStream: true)
        #expect(abs(delay - 0.25) < 0.001, "the pipe holds 250 ms")
        for (index, prompt) in prompts.enumerated() {
            let heard = try #require(prompt.heard, "prompt \(index) was not heard within 0.5 s of its second")
            print(String(format: "held, prompt %d: heard %.1f ms after its second, reported %.1f ms, %@",
                         index, (heard - prompt.due) * 1000, (prompt.reported - prompt.due) * 1000, prompt.measure.rawValue))
            // A player that ignored the device's delay would be heard 250 ms late here.
            #expect(abs(heard - prompt.due) < TestTiming.tolerance(0.05))
            #expect(abs(prompt.reported - heard) < TestTiming.tolerance(0.05))
            #expect(prompt.measure == .deviceDelay, "the running device's first report is confirmed")
        }
    }

    /// Without the hold the device starts with an empty pipe for each prompt and fills it as the
    /// clip plays, so its delay grows from 0 to 250 ms under the clip, and the pulse plugin's
    /// delay report mostly stays at 0 for the whole clip (libpulse's timing, last updated while
    /// the sink was idle, is not refreshed in time): prompts are heard about 250 ms late and
    /// reported on time with `handedToDevice`; a timing update that lands within the clip can
    /// catch part of the fill (once, 166 ms reported of 253 ms heard). That is why the daemon
    /// holds the stream from task load. A measurement for docs/benchmarks.md, not a check: it
    /// runs with `ACTIVETASK_MEASURE_UNHELD=1`.
    @Test("Measured: timed prompts on an unheld stream to a 250 ms device",
          .enabled(if: ProcessInfo.processInfo.environment["ACTIVETASK_MEASURE_UNHELD"] != nil, "a measurement for docs/benchmarks.md; set ACTIVETASK_MEASURE_UNHELD=1"))
    func timedPromptsOnAnUnheldStream() async throws {
        let (_, prompts) = try await speakTimedPrompts(holdingStream: false)
        for (index, prompt) in prompts.enumerated() {
            let heard = try #require(prompt.heard, "prompt \(index) was not heard within 0.5 s of its second")
            print(String(format: "unheld, prompt %d: heard %.1f ms after its second, reported %.1f ms, %@",
                         index, (heard - prompt.due) * 1000, (prompt.reported - prompt.due) * 1000, prompt.measure.rawValue))
        }
    }

    /// What one prompt on a held stream to the 250 ms device came to: when it was asked for, the
    /// time it was scheduled at (`schedule` picks it, given the prompter and that moment), when
    /// the listener heard it, and what the prompter reported.
    struct OnePrompt {
        var delay: Double
        var asked: Double
        var due: Double
        var heard: Double
        var reported: Double
        var measure: OnsetMeasure
    }

    func speakOnce(_ name: String, text: String, schedule: (VoicePrompter, Double) async throws -> Double) async throws -> OnePrompt {
        let sink = try await DelayedPipeSink.start()
        defer { sink.stop() }
        let directory = AudioTestEnvironment.scratch(name)
        let prompter = try await VoicePrompter(
            configuration: VoiceConfiguration(playbackDevice: "test_pulse_delayed", clips: try toneClips(in: directory)), logger: logger)
        let events = prompter.subscribe()
        #expect(await prompter.earliestOnset() == nil, "no stream is held yet")
        await prompter.holdStream(true)
        try await Task.sleep(for: .seconds(1.5))
        let asked = RecordingClock.monotonic()
        let due = try await schedule(prompter, asked)
        try await prompter.speak(text, stepPath: "Task/step", key: nil, scheduledAtMonotonic: due)
        var finished: (onset: Double, measure: OnsetMeasure)?
        for await event in events {
            if case .promptFinished(_, _, let onset, _, let measure) = event {
                finished = (onset - RecordingClock.boottimeOffset(), measure)
                break
            }
        }
        try await Task.sleep(for: .seconds(sink.delay + 0.2))
        await prompter.shutdown()
        #expect(sink.error == nil)
        let reported = try #require(finished)
        let heard = try #require(sink.onsets.first { $0 > asked - 0.1 })
        return OnePrompt(delay: sink.delay, asked: asked, due: due, heard: heard, reported: reported.onset, measure: reported.measure)
    }

    /// A clip spoken at once cannot be heard before the device's delay has passed; on the held
    /// stream it waits behind at most 50 ms of silence too. What the prompter reports must be
    /// when it was heard.
    @Test("A prompt spoken at once on a held stream to a 250 ms device is reported as heard when the listener hears it")
    func promptSpokenAtOnceIsReportedWhenHeard() async throws {
        let prompt = try await speakOnce("delayed-now", text: "prompt 0") { _, asked in asked }
        print(String(format: "held, at once: heard %.1f ms after it was asked for, reported %.1f ms, %@",
                     (prompt.heard - prompt.asked) * 1000, (prompt.reported - prompt.asked) * 1000, prompt.measure.rawValue))
        // About the device's delay (the pipe is 234-250 ms full as the sink writes page by page,
        // 230 ms measured), and at most the held silence after it: not at once.
        #expect(prompt.heard - prompt.asked > prompt.delay - 0.05)
        #expect(prompt.heard - prompt.asked < prompt.delay + TestTiming.tolerance(0.1))
        #expect(abs(prompt.reported - prompt.heard) < TestTiming.tolerance(0.05))
        #expect(prompt.measure == .deviceDelay)
    }

    /// What a session does with a step's `start` prompt (docs/session.md, "A move"): ask when a
    /// prompt could be heard at the earliest, schedule it then and show the step at that moment.
    /// The prompt is then heard when it is due, not a device delay after it.
    @Test("A prompt scheduled at the held stream's earliest onset on a 250 ms device is heard on time")
    func promptAtTheEarliestOnsetIsHeardOnTime() async throws {
        let prompt = try await speakOnce("delayed-earliest", text: "prompt 1") { prompter, asked in
            let earliest = try #require(await prompter.earliestOnset(), "a held, running stream knows when it is heard")
            // Behind the device's delay (less the page the sink may be between) and the held silence.
            #expect(earliest - asked > 0.25 - 0.05)
            #expect(earliest - asked < 0.25 + 0.1)
            return earliest + 0.01
        }
        print(String(format: "held, at the earliest onset (%.1f ms ahead): heard %.1f ms after it was due, reported %.1f ms, %@",
                     (prompt.due - prompt.asked) * 1000, (prompt.heard - prompt.due) * 1000, (prompt.reported - prompt.due) * 1000,
                     prompt.measure.rawValue))
        #expect(abs(prompt.heard - prompt.due) < TestTiming.tolerance(0.05))
        #expect(abs(prompt.reported - prompt.heard) < TestTiming.tolerance(0.05))
    }

    /// What `longPromptThenNext` heard: each prompt's finish (onset and end, CLOCK_MONOTONIC),
    /// when the long one started, and the sink (stopped; its listener's record stays).
    struct LongAndNext {
        var sink: DelayedPipeSink
        var longStarted: Double
        var long: (onset: Double, end: Double)
        var next: (onset: Double, end: Double)
    }

    /// A 3 s prompt of step Task/first playing on a held stream to the 250 ms device; then
    /// `speakNext` (given the prompter and when the long prompt was heard to start) has step
    /// Task/second say "prompt 1" (0.3 s). Returns once both have finished and been heard.
    func longPromptThenNext(_ scratch: String, speakNext: (VoicePrompter, Double) async throws -> Void) async throws -> LongAndNext {
        let sink = try await DelayedPipeSink.start()
        defer { sink.stop() }
        let directory = AudioTestEnvironment.scratch(scratch)
        let long = directory.appendingPathComponent("long.wav").path
        try TestSignals.writeClip(TestSignals.sine(frequency: 500, amplitude: 0.5, seconds: 3, rate: 22_050), to: long)
        var clips = try toneClips(in: directory)
        clips["long"] = long
        let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: "test_pulse_delayed", clips: clips), logger: logger)
        let events = prompter.subscribe()
        await prompter.holdStream(true)
        try await Task.sleep(for: .seconds(1.5))
        try await prompter.speak("long", stepPath: "Task/first", key: nil, scheduledAtMonotonic: nil)
        var longStarted = 0.0
        for await event in events {
            if case .promptStarted(_, _, _, let onset, _) = event {
                longStarted = onset - RecordingClock.boottimeOffset()
                break
            }
        }
        try await speakNext(prompter, longStarted)
        var finished: [String: (onset: Double, end: Double)] = [:]
        for await event in events {
            if case .promptFinished(_, let text, let onset, let end, _) = event {
                finished[text] = (onset - RecordingClock.boottimeOffset(), end - RecordingClock.boottimeOffset())
            }
            if finished.count == 2 { break }
        }
        try await Task.sleep(for: .seconds(sink.delay + 0.3))
        await prompter.shutdown()
        #expect(sink.error == nil)
        return LongAndNext(sink: sink, longStarted: longStarted, long: try #require(finished["long"]), next: try #require(finished["prompt 1"]))
    }

    /// A participant who moves on while a long prompt is read (docs/session.md, "A move"): the
    /// next step's prompt stops it, as SageResearch's voice stops for a new prompt, and is heard
    /// on time instead of after it.
    @Test("The next step's prompt cuts a long prompt of the step before and is heard on time")
    func nextStepCutsALongPrompt() async throws {
        var (asked, cutAfter, due) = (0.0, 0.0, 0.0)
        let heard = try await longPromptThenNext("delayed-cut") { prompter, _ in
            // Heard for a while, then the person moves on.
            try await Task.sleep(for: .seconds(0.6))
            asked = RecordingClock.monotonic()
            await prompter.interrupt(keepingStepPath: "Task/second")
            cutAfter = RecordingClock.monotonic() - asked
            let earliest = try #require(await prompter.earliestOnset(), "nothing plays once the long prompt is cut")
            // Far enough behind the cut for the listener to hear the next prompt's onset on its own.
            due = earliest + 0.15
            try await prompter.speak("prompt 1", stepPath: "Task/second", key: nil, scheduledAtMonotonic: due)
        }
        let onset = try #require(heard.sink.onsets.first { $0 > asked + 0.05 }, "the listener heard the next prompt")
        print(String(format: "cut after %.1f ms; the long prompt played %.2f of its 3 s; the next heard %.1f ms after it was due",
                     cutAfter * 1000, heard.long.end - heard.long.onset, (onset - due) * 1000))
        #expect(cutAfter < TestTiming.tolerance(0.25))
        #expect(heard.long.end - heard.long.onset < 1.5, "the long prompt was cut short")
        #expect(heard.long.end <= heard.next.onset + 0.001)
        #expect(abs(onset - due) < TestTiming.tolerance(0.05), "the next prompt is heard when it is due")
    }

    /// A step whose prompt comes later than its start (no cut as it shows): a long prompt of the
    /// step before still playing when that prompt falls due stops for it, as SageResearch's voice
    /// stops for something new, instead of making it late.
    @Test("A later prompt of the next step cuts a long prompt still playing when it falls due, and is heard on time")
    func laterPromptOvertakesALongPrompt() async throws {
        var due = 0.0
        let heard = try await longPromptThenNext("delayed-overtake") { prompter, longStarted in
            // Due 1 s into the long prompt: queued, it must not wait 2 s more.
            due = longStarted + 1
            try await prompter.speak("prompt 1", stepPath: "Task/second", key: nil, scheduledAtMonotonic: due)
        }
        // The next prompt follows the cut too closely for the listener to hear its onset apart
        // (that needs 0.1 s of quiet): its end, 0.3 s after it starts, is what it hears.
        let onset = try #require(heard.sink.lastSound, "the listener heard nothing") - 0.3
        print(String(format: "the long prompt played %.2f of its 3 s; the next heard %.1f ms after it was due (reported %.1f ms)",
                     heard.long.end - heard.long.onset, (onset - due) * 1000, (heard.next.onset - due) * 1000))
        #expect(heard.sink.onsets.filter { $0 > heard.longStarted + 0.1 }.isEmpty, "one stretch of sound: \(heard.sink.onsets)")
        #expect(heard.long.end - heard.long.onset < 1.2, "the long prompt was cut short")
        #expect(heard.long.end <= heard.next.onset + 0.001)
        #expect(abs(onset - due) < TestTiming.tolerance(0.05), "the next prompt is heard when it is due")
    }
}
