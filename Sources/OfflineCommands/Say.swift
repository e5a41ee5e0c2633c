import Clocks
import ALSA
import ArgumentParser
import CommandOutput
import Foundation
import Voice

/// `activetaskctl say`: speaks one prompt through the daemon's voice prompter, no daemon needed.
struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak one prompt the way the daemon does (espeak-ng through an ALSA playback device).")

    @Argument(help: "What to say.")
    var text: String

    @Option(name: .customLong("playback-device"), help: "The ALSA PCM to play through (default, hw:0,0, plughw:…, pulse).")
    var playbackDevice = "default"

    @Option(help: "The espeak-ng voice.")
    var voice = "en"

    @Option(name: .customLong("words-per-minute"), help: "Speaking rate.")
    var wordsPerMinute = 175

    @Option(help: "A WAV clip to play instead of synthesising TEXT (as a configured prompt clip).")
    var clip: String?

    @Flag(help: "Print when the prompt was heard as JSON (CLOCK_BOOTTIME seconds).")
    var json = false

    @Flag(help: "Log debug details to standard error.")
    var verbose = false

    func run() async throws {
        let logger = CommandLogging.logger(label: "activetaskctl.say", verbose: verbose)
        let configuration = VoiceConfiguration(
            playbackDevice: playbackDevice, voice: voice, wordsPerMinute: wordsPerMinute,
            clips: clip.map { [text: $0] } ?? [:])
        VoiceEnvironment.prepare()
        let prompter: VoicePrompter
        do {
            prompter = try await VoicePrompter(configuration: configuration, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        let events = prompter.subscribe()
        let requested = RecordingClock.uptime()
        try await prompter.speak(text)
        var failure: String?
        for await event in events {
            switch event {
            case .promptStarted, .playedOut: break
            case .promptFinished(_, _, let onset, let end, let measure):
                if json {
                    try JSONOutput.print(SaidPrompt(requestedUptime: requested, onsetUptime: onset, endUptime: end, heardBy: measure.rawValue),
                                         prettyPrinted: false)
                }
                await prompter.shutdown()
            case .playbackFailed(let message):
                failure = message
                await prompter.shutdown()
            }
        }
        if let failure {
            FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
            throw ExitCode.failure
        }
    }
}
