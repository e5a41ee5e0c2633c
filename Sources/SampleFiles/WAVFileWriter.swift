public import SystemPackage

/// A PCM WAV file written as samples arrive: a canonical header first, then the data; the size
/// fields are patched by `updateHeader()` (call it every second or so, so a crash loses at most
/// that much header accuracy) and by `close()`. A file cut by a crash is fixed by
/// `SampleFileRepair.repairWAV(at:)`.
public final class WAVFileWriter {
    public let writer: SampleFileWriter
    public private(set) var header: WAVHeader
    private var headerDataSize = 0
    private var sizeField: [UInt8] = [0, 0, 0, 0]

    /// Creates (or truncates) the file and writes the header with empty sizes.
    public init(
        path: FilePath, encoding: WAVHeader.Encoding, channels: Int, sampleRate: Int, bitsPerSample: Int,
        policy: SyncPolicy = .default, bufferCapacity: Int = 64 * 1024
    ) throws(SampleFileError) {
        writer = try SampleFileWriter(path: path, policy: policy, bufferCapacity: bufferCapacity)
        header = WAVHeader(encoding: encoding, channels: channels, sampleRate: sampleRate, bitsPerSample: bitsPerSample, dataSize: 0)
        writer.buffer.append(contentsOf: header.encoded())
    }

    /// Bytes of sample data appended so far.
    public var dataSize: Int { writer.logicalSize - WAVHeader.canonicalSize }

    /// Appends interleaved sample bytes (whole frames) without allocating.
    @inline(__always)
    public func append(_ samples: UnsafeRawBufferPointer) throws(SampleFileError) {
        writer.buffer.append(contentsOf: samples)
        try writer.commitIfNeeded()
    }

    /// Appends `byteCount` bytes of silence (zeros), for example to fill a recovered gap so
    /// that the file's time axis stays true.
    public func appendSilence(byteCount: Int) throws(SampleFileError) {
        var remaining = byteCount
        while remaining > 0 {
            let chunk = min(remaining, 256)
            for _ in 0..<chunk { writer.buffer.append(0) }
            remaining -= chunk
            try writer.commitIfNeeded()
        }
    }

    /// Writes the current sizes into the header (flushing the buffered data first).
    public func updateHeader() throws(SampleFileError) {
        let size = dataSize
        guard size != headerDataSize else { return }
        try patch(offset: WAVHeader.riffSizeOffset, value: UInt32(clamping: min(size, Int(UInt32.max)) + 36))
        try patch(offset: WAVHeader.dataSizeOffset, value: UInt32(clamping: size))
        headerDataSize = size
        header.dataSize = size
    }

    private func patch(offset: Int64, value: UInt32) throws(SampleFileError) {
        // Reuses one 4-byte array so that periodic header updates do not allocate.
        sizeField[0] = UInt8(truncatingIfNeeded: value)
        sizeField[1] = UInt8(truncatingIfNeeded: value >> 8)
        sizeField[2] = UInt8(truncatingIfNeeded: value >> 16)
        sizeField[3] = UInt8(truncatingIfNeeded: value >> 24)
        try writer.overwrite(at: offset, bytes: sizeField)
    }

    /// Writes the final sizes, fsyncs and closes.
    public func close() throws(SampleFileError) {
        try updateHeader()
        try writer.close()
    }
}
