import CEspeakNG
import Foundation
import Glibc

/// The only code that calls libespeak-ng. espeak-ng keeps global state and is not thread-safe:
/// every function here must run on the synthesizer's one worker thread.
enum EspeakLibrary {
    /// Collects the samples the synthesis callback hands over.
    final class Collector {
        var samples: [Int16] = []
    }

    /// Initialises synchronous synthesis; returns the sample rate (22050 Hz for espeak-ng voices).
    ///
    /// espeak-ng initialises its audio layer (libpcaudio → PulseAudio) even when it only
    /// synthesises into buffers, and that layer reads XDG_RUNTIME_DIR. A library must not
    /// `setenv` (it races `getenv` on ALSA and PulseAudio threads), so the executable sets it
    /// before any thread starts (docs/voice.md).
    static func initialize(dataPath: String?) throws(VoiceError) -> Int {
        let rate: Int32 = if let dataPath {
            espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, dataPath, 0)
        } else {
            espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, nil, 0)
        }
        guard rate > 0 else {
            throw VoiceError("espeak-ng could not be initialised (error \(rate)). Install espeak-ng-data or set the voice data path.")
        }
        espeak_SetSynthCallback { wave, count, events in
            guard let events, let context = events.pointee.user_data else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            if let wave, count > 0 {
                collector.samples.append(contentsOf: UnsafeBufferPointer(start: wave, count: Int(count)))
            }
            return 0  // continue synthesis
        }
        return Int(rate)
    }

    static func setVoice(_ name: String) throws(VoiceError) {
        let result = espeak_SetVoiceByName(name)
        guard result == EE_OK else {
            throw VoiceError("espeak-ng has no voice \"\(name)\" (error \(result.rawValue)). List voices with `espeak-ng --voices`.")
        }
    }

    static func setRate(wordsPerMinute: Int) throws(VoiceError) {
        let result = espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
        guard result == EE_OK else {
            throw VoiceError("espeak-ng refused the speaking rate \(wordsPerMinute) words per minute (error \(result.rawValue)); use 80–450.")
        }
    }

    /// Synthesises `text` (UTF-8) and returns its 16-bit mono samples.
    static func synthesize(_ text: String) throws(VoiceError) -> [Int16] {
        let collector = Collector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        let result = text.withCString { pointer in
            espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0,
                         UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
        }
        guard result == EE_OK else {
            throw VoiceError("espeak-ng could not synthesise \"\(text)\" (error \(result.rawValue)).")
        }
        _ = espeak_Synchronize()
        return collector.samples
    }
}
