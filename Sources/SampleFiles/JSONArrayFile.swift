public import SystemPackage

/// A JSON array written one element at a time: `[` on open, `,` between elements, `]` on close.
///
/// A file cut before `close()` (crash, kill -9, power cut) is made valid again by
/// `SampleFileRepair.repairJSONArray(at:)`.
public final class JSONArrayFile {
    public let writer: SampleFileWriter
    /// Elements appended so far (not checked for exclusive access at run time, as
    /// `SampleFileWriter.buffer`).
    @exclusivity(unchecked) public private(set) var elementCount = 0

    public init(path: FilePath, policy: SyncPolicy = .default, bufferCapacity: Int = 64 * 1024) throws(SampleFileError) {
        writer = try SampleFileWriter(path: path, policy: policy, bufferCapacity: bufferCapacity)
        writer.buffer.append("[\n")
    }

    /// Appends one element; `body` writes the element's JSON text into the buffer.
    /// - Parameter flushingByTime: false when the caller calls `writer.maybeFlushByTime()`
    ///   itself after each batch of elements; the element then only checks the buffer's fill
    ///   (`SampleFileWriter.commitIfFull()`).
    @inline(__always)
    public func appendElement(flushingByTime: Bool = true, _ body: (inout SampleByteBuffer) -> Void) throws(SampleFileError) {
        if elementCount > 0 { writer.buffer.append(",\n") }
        body(&writer.buffer)
        elementCount += 1
        if flushingByTime {
            try writer.commitIfNeeded()
        } else {
            try writer.commitIfFull()
        }
    }

    /// Appends one element from already-encoded JSON bytes (for example `JSONEncoder` output).
    public func appendElement(json: [UInt8]) throws(SampleFileError) {
        try appendElement { $0.append(contentsOf: json) }
    }

    /// Writes the closing bracket, fsyncs and closes.
    public func close() throws(SampleFileError) {
        writer.buffer.append("\n]\n")
        try writer.close()
    }
}
