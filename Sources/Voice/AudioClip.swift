/// A mono 16-bit clip ready to play: a synthesised prompt, a WAV clip or a tone.
public struct AudioClip: Sendable, Hashable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Seconds of audio.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}
