public import Foundation
import SampleFiles

/// What a pass over a WAV file's samples found: its length and how many samples sat at full
/// scale. Integer PCM (16, 24, 32 bit) and 32-bit float are read.
public struct WAVSampleScan: Sendable, Hashable {
    public var sampleRate: Int
    public var channels: Int
    /// Seconds of audio in the file (whole frames actually present).
    public var duration: Double
    /// Samples (all channels) read.
    public var samples: Int
    /// Samples at full scale: within one step of the integer limit, or |x| ≥ 1 for float.
    public var clippedSamples: Int

    /// Scans the WAV file at `url` in chunks.
    public static func scan(_ url: URL) throws -> WAVSampleScan {
        let head: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = [UInt8](try handle.read(upToCount: 4096) ?? Data())
        } catch {
            throw QualityError(path: url.path, reason: "The audio file could not be read (\(error.localizedDescription)).")
        }
        let layout: WAVHeader.Layout
        do {
            layout = try WAVHeader.parse(head)
        } catch {
            throw QualityError(path: url.path, reason: "The audio file is not a WAV file this reader understands: \(error.description)")
        }
        let header = layout.header
        let bytesPerSample = header.bitsPerSample / 8
        let isFloat = header.encoding == .float
        guard [2, 3, 4].contains(bytesPerSample), header.channels > 0 else {
            throw QualityError(path: url.path, reason: "The audio file has \(header.bitsPerSample)-bit samples; only 16, 24 and 32-bit PCM can be checked.")
        }
        // Integer full scale: the largest magnitude minus one step counts as clipped.
        let limit = Int64(1) << Int64(header.bitsPerSample - 1)
        // The data chunk's size as written, unless the file is shorter (cut by a crash before the
        // header was patched): then everything after the header.
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? Int.max
        let available = max(fileSize - layout.dataOffset, 0)
        var remaining = header.dataSize > 0 && header.dataSize <= available ? header.dataSize : available
        var skip = layout.dataOffset
        var carry: [UInt8] = []
        var samples = 0
        var clipped = 0
        try ChunkedFileReader.forEachChunk(of: url) { chunk in
            var start = 0
            if skip > 0 {
                start = min(skip, chunk.count)
                skip -= start
            }
            let take = min(chunk.count - start, remaining)
            remaining -= take
            var bytes = carry
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<start + take]))
            let whole = bytes.count - bytes.count % bytesPerSample
            var index = 0
            while index < whole {
                if isFloat {
                    let bits = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
                    if abs(Float(bitPattern: bits)) >= 1 { clipped += 1 }
                } else {
                    var value: Int64 = 0
                    for byte in 0..<bytesPerSample { value |= Int64(bytes[index + byte]) << Int64(8 * byte) }
                    let shift = Int64(64 - 8 * bytesPerSample)
                    value = (value << shift) >> shift
                    if value >= limit - 1 || value <= -limit + 1 { clipped += 1 }
                }
                samples += 1
                index += bytesPerSample
            }
            carry = Array(bytes[whole...])
        }
        let frames = samples / header.channels
        return WAVSampleScan(
            sampleRate: header.sampleRate, channels: header.channels,
            duration: header.sampleRate > 0 ? Double(frames) / Double(header.sampleRate) : 0,
            samples: frames * header.channels, clippedSamples: clipped)
    }
}
