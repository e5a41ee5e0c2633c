import BlockingCalls
public import Logging

/// Text to speech with libespeak-ng, in-process, into a buffer (16-bit mono, 22050 Hz).
///
/// espeak-ng is a process-wide, non-thread-safe library, so every synthesis in the process runs
/// on one shared worker thread, one at a time, whichever synthesizer asked.
public final class SpeechSynthesizer: Sendable {
    private static let worker = SerialThread(name: "espeak-ng")

    /// The espeak-ng voice (`en`, `en-us`, `fr`, …).
    public let voice: String
    /// Speaking rate in words per minute (espeak-ng's default is 175).
    public let wordsPerMinute: Int
    private let logger: Logger

    public init(voice: String = "en", wordsPerMinute: Int = 175, logger: Logger) {
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
        self.logger = logger
    }

    /// Synthesises `text` into a clip.
    public func synthesize(_ text: String) async throws(VoiceError) -> AudioClip {
        let voice = voice
        let wordsPerMinute = wordsPerMinute
        let clip = try await Self.worker.run { () throws(VoiceError) -> AudioClip in
            let rate = try EspeakState.ensureInitialized()
            try EspeakState.select(voice: voice, wordsPerMinute: wordsPerMinute)
            return AudioClip(samples: try EspeakLibrary.synthesize(text), sampleRate: rate)
        }
        logger.debug("Synthesised a prompt", metadata: ["text": "\(text)", "seconds": "\(clip.duration)"])
        return clip
    }
}
