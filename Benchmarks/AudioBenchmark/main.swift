// audio-benchmark: CPU of a 16 kHz mono recording with levels, and of synthesising and playing
// a prompt (getrusage around each run), and heap allocations per period in the recorder's
// steady state (with scripts/bench/malloc_count.so preloaded). Run through
// scripts/bench-audio.sh, which sets up the ALSA devices and a PulseAudio null sink.
import Clocks
import ALSA
import AsyncActions
import Audio
import Foundation
import Glibc
import Logging
import TaskModel
import Voice

struct Usage {
    var cpu: Double
    var wall: Double

    static func now() -> Usage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return Usage(cpu: cpu, wall: RecordingClock.monotonic())
    }

    static func - (lhs: Usage, rhs: Usage) -> Usage { Usage(cpu: lhs.cpu - rhs.cpu, wall: lhs.wall - rhs.wall) }
}

/// The preloaded allocation counter, if any.
let mallocCount: (@convention(c) () -> UInt)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "activetask_malloc_count") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
}()

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}
let infile = option("--infile", "")
let pacedCapture = option("--paced-capture", "")
let pacedPlayback = option("--paced-playback", "")
let logger: Logger = {
    var logger = Logger(label: "audio-benchmark")
    logger.logLevel = .warning
    return logger
}()
let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("audio-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

/// Records `seconds` of audio from `device`; returns CPU/wall usage and allocations during the
/// capture (from start to the end of capture, so file creation and results are excluded).
/// `paced` false for the unpaced file capture (it replays its file as fast as it is read).
@MainActor func record(device: String, seconds: Double, name: String, paced: Bool = true) async throws -> (Usage, UInt?) {
    let recorder = MicrophoneRecorder(
        configuration: AudioRecorderConfiguration(identifier: name, saveAudioFile: true),
        output: RecorderOutput(directory: directory, baseName: name, taskRunUUID: UUID(), ownerPath: "bench", logger: logger),
        settings: MicrophoneSettings(device: device, maximumDuration: seconds, requiresPacing: paced))
    try await recorder.requestPermission()
    try await recorder.start(stepPath: "bench")
    let before = Usage.now()
    let allocationsBefore = mallocCount?()
    await recorder.waitUntilCaptured()
    let allocationsAfter = mallocCount?()
    let usage = Usage.now() - before
    _ = try await recorder.stop()
    return (usage, allocationsAfter.flatMap { after in allocationsBefore.map { after - $0 } })
}

print("## Audio benchmark (\(ProcessInfo.processInfo.processorCount) cores)")
if !infile.isEmpty {
    // Unpaced capture from a file PCM: pure processing cost, and allocations vs. length.
    let (_, shortAllocations) = try await record(device: "bench_cap:FILE=\(infile)", seconds: 60, name: "short", paced: false)
    let (long, longAllocations) = try await record(device: "bench_cap:FILE=\(infile)", seconds: 600, name: "long", paced: false)
    print(String(format: "- Recorder processing, 16 kHz mono S16 + levels (file PCM, unpaced): %.3f s CPU for 600 s of audio = %.4f %% of one core in real time", long.cpu, long.cpu / 600 * 100))
    if let shortAllocations, let longAllocations {
        let periods600 = 600 * 16_000 / 320
        let periods60 = 60 * 16_000 / 320
        print("- Heap allocations during capture: \(shortAllocations) for 60 s (\(periods60) periods), \(longAllocations) for 600 s (\(periods600) periods): \(String(format: "%.4f", Double(Int(longAllocations) - Int(shortAllocations)) / Double(periods600 - periods60))) extra allocations per period")
    } else {
        print("- Heap allocations: not measured (run with LD_PRELOAD=scripts/bench/malloc_count.so)")
    }
}
if !pacedCapture.isEmpty {
    let (paced, allocations) = try await record(device: pacedCapture, seconds: 10, name: "paced")
    print(String(format: "- Real-time 10 s recording through PulseAudio (%@): %.3f s CPU in %.2f s wall = %.2f %% of one core (includes libpulse's client thread)%@",
                 pacedCapture, paced.cpu, paced.wall, paced.cpu / paced.wall * 100,
                 allocations.map { ", \($0) heap allocations (\(Double($0) / 500) per 20 ms period, libpulse included)" } ?? ""))
}
if !pacedPlayback.isEmpty {
    let text = "Stand still with your arms at your sides for thirty seconds."
    let synthesizer = SpeechSynthesizer(logger: logger)
    _ = try await synthesizer.synthesize("warm up")  // espeak-ng initialisation is a one-off
    let synthesisStart = Usage.now()
    let clip = try await synthesizer.synthesize(text)
    let synthesis = Usage.now() - synthesisStart
    print(String(format: "- Synthesising a %.2f s prompt with espeak-ng: %.3f s CPU, %.3f s wall", clip.duration, synthesis.cpu, synthesis.wall))

    let prompter = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: pacedPlayback), logger: logger)
    let events = prompter.subscribe()
    let playStart = Usage.now()
    try await prompter.speak(text)
    for await event in events {
        if case .promptFinished = event { break }
    }
    let play = Usage.now() - playStart
    await prompter.shutdown()
    print(String(format: "- Synthesising and playing it through PulseAudio (%@): %.3f s CPU in %.2f s wall = %.2f %% of one core", pacedPlayback, play.cpu, play.wall, play.cpu / play.wall * 100))

    // Between prompts the player closes the stream (PromptStreamPolicy): an idle prompter
    // should cost nothing.
    let idler = try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: pacedPlayback), logger: logger)
    try await Task.sleep(for: .seconds(2))
    let idleStart = Usage.now()
    try await Task.sleep(for: .seconds(5))
    let idle = Usage.now() - idleStart
    await idler.shutdown()
    print(String(format: "- A prompter between prompts (stream closed): %.3f s CPU in %.2f s = %.3f %% of one core", idle.cpu, idle.wall, idle.cpu / idle.wall * 100))
}
try? FileManager.default.removeItem(at: directory)
