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

    /// The built-in sound for `playSoundOnStart`/`playSound`: a short rising pair of beeps,
    /// 0.11 s, about as long as the system sound iOS plays. A step's start prompt is queued behind
    /// it (the player plays one clip at a time), so its length is that prompt's lateness.
    public static func startSound(sampleRate: Int) -> AudioClip {
        tones([(660, 0.04), (0, 0.02), (880, 0.05)], sampleRate: sampleRate)
    }

    /// The built-in sound for `playSoundOnFinish`: a short falling pair of beeps, 0.12 s.
    public static func finishSound(sampleRate: Int) -> AudioClip {
        tones([(880, 0.04), (0, 0.02), (660, 0.06)], sampleRate: sampleRate)
    }
}
