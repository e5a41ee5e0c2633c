import Foundation

extension AudioClip {
    /// Sine tones played one after another, each with 5 ms fades so they do not click.
    public static func tones(_ parts: [(frequency: Double, duration: Double)], sampleRate: Int, amplitude: Double = 0.5) -> AudioClip {
        var samples: [Int16] = []
        for part in parts {
            let count = Int(part.duration * Double(sampleRate))
            let fade = max(min(Int(0.005 * Double(sampleRate)), count / 2), 1)
            for index in 0..<count {
                let envelope = min(1, Double(min(index, count - 1 - index)) / Double(fade))
                let value = amplitude * envelope * sin(2 * Double.pi * part.frequency * Double(index) / Double(sampleRate))
                samples.append(Int16((value * 32767).rounded()))
            }
        }
        return AudioClip(samples: samples, sampleRate: sampleRate)
    }

    /// The built-in sound for `playSoundOnStart`/`playSound`: a short rising pair of beeps.
    public static func startSound(sampleRate: Int) -> AudioClip {
        tones([(660, 0.08), (0, 0.03), (880, 0.12)], sampleRate: sampleRate)
    }

    /// The built-in sound for `playSoundOnFinish`: a short falling pair of beeps.
    public static func finishSound(sampleRate: Int) -> AudioClip {
        tones([(880, 0.08), (0, 0.03), (660, 0.16)], sampleRate: sampleRate)
    }
}
