/// The canonical 44-byte RIFF/WAVE header of a PCM file, and a parser for the chunk layout of
/// WAV files written by other tools (extra chunks such as `LIST` are skipped).
public struct WAVHeader: Sendable, Hashable {
    /// The sample encoding (`fmt ` format tag).
    public enum Encoding: UInt16, Sendable, Hashable {
        /// Signed integer PCM (format tag 1).
        case integer = 1
        /// IEEE float PCM (format tag 3).
        case float = 3
        /// WAVE_FORMAT_EXTENSIBLE: the real encoding is in the sub-format GUID; read as integer
        /// or float by bit depth when parsing.
        case extensible = 0xFFFE
    }

    public var encoding: Encoding
    public var channels: Int
    public var sampleRate: Int
    public var bitsPerSample: Int
    /// Bytes of sample data that follow the header.
    public var dataSize: Int

    public init(encoding: Encoding, channels: Int, sampleRate: Int, bitsPerSample: Int, dataSize: Int) {
        self.encoding = encoding
        self.channels = channels
        self.sampleRate = sampleRate
        self.bitsPerSample = bitsPerSample
        self.dataSize = dataSize
    }

    /// Size of the header `encoded()` writes.
    public static let canonicalSize = 44
    /// The most sample data bytes a canonical WAV file can state: its RIFF size (32 bits) counts
    /// the 36 header bytes after it too.
    public static let maximumDataSize = Int(UInt32.max) - 36
    /// Offset of the RIFF size field.
    public static let riffSizeOffset: Int64 = 4
    /// Offset of the data size field in the canonical header.
    public static let dataSizeOffset: Int64 = 40

    /// Bytes per frame (all channels).
    public var blockAlign: Int { channels * bitsPerSample / 8 }

    /// Seconds of audio in `dataSize`.
    public var duration: Double {
        blockAlign > 0 && sampleRate > 0 ? Double(dataSize / blockAlign) / Double(sampleRate) : 0
    }

    /// The 44-byte canonical header.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.canonicalSize)
        bytes += Array("RIFF".utf8)
        Self.appendLE(&bytes, UInt32(clamping: min(dataSize, Int(UInt32.max)) + 36))
        bytes += Array("WAVEfmt ".utf8)
        Self.appendLE(&bytes, UInt32(16))
        Self.appendLE(&bytes, UInt16(encoding == .float ? 3 : 1))
        // Clamped: fields of 16 and 32 bits never trap on a value a device or setting made large.
        Self.appendLE(&bytes, UInt16(clamping: channels))
        Self.appendLE(&bytes, UInt32(clamping: sampleRate))
        Self.appendLE(&bytes, UInt32(clamping: sampleRate.multipliedReportingOverflow(by: blockAlign).overflow ? Int.max : sampleRate * blockAlign))
        Self.appendLE(&bytes, UInt16(clamping: blockAlign))
        Self.appendLE(&bytes, UInt16(clamping: bitsPerSample))
        bytes += Array("data".utf8)
        Self.appendLE(&bytes, UInt32(clamping: dataSize))
        return bytes
    }

    /// A little-endian UInt32 as four bytes (for patching size fields).
    public static func littleEndian(_ value: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLE(&bytes, value)
        return bytes
    }

    private static func appendLE<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// Where a parsed file's sample data lies.
    public struct Layout: Sendable, Hashable {
        public var header: WAVHeader
        /// Offset of the first sample byte.
        public var dataOffset: Int
        /// Offset of the data chunk's size field.
        public var dataSizeFieldOffset: Int
    }

    /// Parses the chunks at the start of a WAV file. `bytes` must hold at least everything up
    /// to the `data` chunk header; the data size is taken as written (it may be wrong in a file
    /// cut by a crash — see `SampleFileRepair.repairWAV`).
    public static func parse(_ bytes: [UInt8]) throws(WAVFormatError) -> Layout {
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw WAVFormatError("The file does not start with a RIFF/WAVE header.")
        }
        var offset = 12
        var format: (encoding: Encoding, channels: Int, rate: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let size = u32(offset + 4)
            if id == "fmt " {
                guard offset + 8 + 16 <= bytes.count else { break }
                let body = offset + 8
                let rawTag = UInt16(u16(body))
                var encoding = Encoding(rawValue: rawTag)
                let bits = u16(body + 14)
                if encoding == .extensible, size >= 40, offset + 8 + 26 <= bytes.count {
                    // The sub-format GUID starts with the real format tag.
                    encoding = Encoding(rawValue: UInt16(u16(body + 24)))
                }
                guard let encoding, encoding != .extensible else {
                    throw WAVFormatError("The WAV format tag \(rawTag) is not PCM; convert the clip to PCM (for example with sox).")
                }
                format = (encoding, u16(body + 2), u32(body + 4), bits)
            } else if id == "data" {
                guard let format else {
                    throw WAVFormatError("The WAV file has its data before its format chunk.")
                }
                let header = WAVHeader(
                    encoding: format.encoding, channels: format.channels, sampleRate: format.rate,
                    bitsPerSample: format.bits, dataSize: size)
                return Layout(header: header, dataOffset: offset + 8, dataSizeFieldOffset: offset + 4)
            }
            offset += 8 + size + (size & 1)
        }
        throw WAVFormatError("The WAV file has no data chunk in its first \(bytes.count) bytes.")
    }
}
