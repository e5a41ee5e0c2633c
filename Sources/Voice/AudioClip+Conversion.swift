import SampleFiles

extension AudioClip {
    /// The clip at `rate` Hz, by linear interpolation (prompts are speech and beeps; linear
    /// resampling is enough and needs no extra library).
    public func resampled(to rate: Int) -> AudioClip {
        guard rate != sampleRate, !samples.isEmpty, rate > 0 else { return AudioClip(samples: samples, sampleRate: rate) }
        let count = Int((Double(samples.count) * Double(rate) / Double(sampleRate)).rounded())
        let step = Double(sampleRate) / Double(rate)
        var output = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            let position = Double(index) * step
            let lower = min(Int(position), samples.count - 1)
            let upper = min(lower + 1, samples.count - 1)
            let fraction = position - Double(lower)
            output[index] = Int16((Double(samples[lower]) * (1 - fraction) + Double(samples[upper]) * fraction).rounded())
        }
        return AudioClip(samples: output, sampleRate: rate)
    }

    /// Decodes a PCM WAV file (8/16/24/32-bit integer or 32-bit float, any channel count;
    /// channels are averaged to mono).
    public init(wavBytes bytes: [UInt8]) throws(VoiceError) {
        let layout: WAVHeader.Layout
        do {
            layout = try WAVHeader.parse(bytes)
        } catch {
            throw VoiceError("The clip is not a usable WAV file: \(error.message)")
        }
        let header = layout.header
        let bytesPerSample = header.bitsPerSample / 8
        guard header.channels > 0, [1, 2, 3, 4].contains(bytesPerSample),
              header.encoding != .float || bytesPerSample == 4 else {
            throw VoiceError("The WAV clip has \(header.bitsPerSample)-bit samples in \(header.channels) channel(s); use 16-bit PCM.")
        }
        let end = min(bytes.count, layout.dataOffset + header.dataSize)
        let frameSize = bytesPerSample * header.channels
        let frames = max(end - layout.dataOffset, 0) / frameSize
        var samples = [Int16](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<header.channels {
                let at = layout.dataOffset + frame * frameSize + channel * bytesPerSample
                sum += Self.normalizedSample(bytes, at: at, size: bytesPerSample, isFloat: header.encoding == .float)
            }
            let mono = max(-1, min(1, sum / Double(header.channels)))
            samples[frame] = Int16((mono * 32767).rounded())
        }
        self.init(samples: samples, sampleRate: header.sampleRate)
    }

    private static func normalizedSample(_ bytes: [UInt8], at offset: Int, size: Int, isFloat: Bool) -> Double {
        var raw: UInt32 = 0
        for index in 0..<size { raw |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
        if isFloat { return Double(Float(bitPattern: raw)) }
        switch size {
        case 1: return (Double(raw) - 128) / 128  // 8-bit WAV is unsigned
        case 2: return Double(Int16(truncatingIfNeeded: raw)) / 32768
        case 3: return Double(Int32(bitPattern: raw << 8) >> 8) / 8_388_608
        default: return Double(Int32(bitPattern: raw)) / 2_147_483_648
        }
    }
}
