import Synchronization

/// What has been set up in the process's one espeak-ng instance; touched only on the worker
/// thread (the mutex makes that safe to state, not to contend).
enum EspeakState {
    private struct Current {
        var sampleRate: Int?
        var voice: String?
        var wordsPerMinute: Int?
    }

    private static let current = Mutex(Current())

    /// Initialises espeak-ng once; returns its sample rate.
    static func ensureInitialized() throws(VoiceError) -> Int {
        if let rate = current.withLock({ $0.sampleRate }) { return rate }
        let rate = try EspeakLibrary.initialize(dataPath: nil)
        current.withLock { $0.sampleRate = rate }
        return rate
    }

    /// Selects the voice and rate when they differ from the last synthesis.
    static func select(voice: String, wordsPerMinute: Int) throws(VoiceError) {
        let (lastVoice, lastRate) = current.withLock { ($0.voice, $0.wordsPerMinute) }
        if lastVoice != voice {
            try EspeakLibrary.setVoice(voice)
            current.withLock { $0.voice = voice }
        }
        if lastRate != wordsPerMinute {
            try EspeakLibrary.setRate(wordsPerMinute: wordsPerMinute)
            current.withLock { $0.wordsPerMinute = wordsPerMinute }
        }
    }
}
