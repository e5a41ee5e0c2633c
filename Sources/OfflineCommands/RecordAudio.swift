import ALSA
import ArgumentParser
import CommandOutput
import AsyncActions
import Audio
import Foundation
import Logging
import TaskModel

/// `activetaskctl record-audio`: records a WAV plus `FILE_levels.json` with the daemon's
/// microphone recorder, no daemon needed.
struct RecordAudio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-audio",
        abstract: "Record a WAV file and its one-second dBFS levels from an ALSA capture device.")

    @Option(name: .customLong("capture-device"), help: "The ALSA PCM to record from (default, hw:1,0, plughw:…, pulse).")
    var captureDevice = "default"

    @Option(help: "Seconds of audio to record.")
    var duration: Double

    @Option(help: "The WAV file to write; the levels go to FILE_levels.json beside it.")
    var output: String

    @Option(help: "Sample rate in Hz (the nearest the device supports is used).")
    var rate = 16_000

    @Option(help: "Number of channels.")
    var channels = 1

    @Option(help: "Sample format: S16_LE, S32_LE or FLOAT_LE.")
    var format = "S16_LE"

    @Option(name: .customLong("period-frames"), help: "Frames per period.")
    var periodFrames = 320

    @Option(name: .customLong("buffer-frames"), help: "Frames in the ALSA ring buffer.")
    var bufferFrames = 2_560

    @Flag(help: "The device replays a file as fast as it is read (ALSA's file plugin over null): record it anyway; otherwise a device that does not keep time fails the recording.")
    var unpaced = false

    @Flag(help: "Log debug details to standard error.")
    var verbose = false

    func validate() throws {
        guard duration > 0 else { throw ValidationError("--duration must be more than 0 seconds.") }
        guard output.hasSuffix(".wav") else { throw ValidationError("--output must name a .wav file.") }
        guard SampleFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of S16_LE, S32_LE, FLOAT_LE.")
        }
    }

    func run() async throws {
        let logger = CommandLogging.logger(label: "activetaskctl.record-audio", verbose: verbose)
        let url = URL(fileURLWithPath: output)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let baseName = url.deletingPathExtension().lastPathComponent
        let recorderOutput = RecorderOutput(
            directory: directory, baseName: baseName, taskRunUUID: UUID(), ownerPath: "record-audio", logger: logger)
        let settings = MicrophoneSettings(
            device: captureDevice,
            hardware: HardwareParameters(
                rate: rate, channels: channels, format: SampleFormat(rawValue: format) ?? .s16LE,
                periodFrames: periodFrames, bufferFrames: bufferFrames),
            maximumDuration: duration, requiresPacing: !unpaced)
        let recorder = MicrophoneRecorder(
            configuration: AudioRecorderConfiguration(identifier: baseName, saveAudioFile: true),
            output: recorderOutput, settings: settings)

        let results = try await withThrowingTaskGroup(of: [any ResultData].self) { group in
            group.addTask {
                for await event in recorder.events {
                    if case .warning(let message) = event.kind {
                        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
                    }
                    // Failures are reported by the thrown error or the error result printed below.
                }
                return []
            }
            group.addTask {
                try await recorder.requestPermission()
                try await recorder.start(stepPath: "record-audio")
                await recorder.waitUntilCaptured()
                return try await recorder.stop()
            }
            var collected: [any ResultData] = []
            for try await part in group { collected += part }
            return collected
        }
        // One JSON array of the file results (and the error result when the device failed).
        var encoded: [String] = []
        var failed = false
        // The WAV and the levels come back as one collection; print its files one by one.
        let flattened = results.flatMap { result -> [any ResultData] in
            (result as? CollectionResult)?.children.map(\.result) ?? [result]
        }
        for result in flattened {
            if let file = result as? FileResult {
                encoded.append(try JSONOutput.string(file))
            } else if let error = result as? ErrorResult {
                encoded.append(try JSONOutput.string(error))
                failed = true
            }
        }
        print("[\n" + encoded.joined(separator: ",\n") + "\n]")
        if failed { throw ExitCode.failure }
    }
}
