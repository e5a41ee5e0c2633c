public import SystemPackage
import SystemCalls

extension SampleFileRepair {
    /// Makes a WAV file cut by a crash valid: the RIFF and data sizes are set from the file's
    /// real length and a partial last frame is cut off. A file shorter than its header cannot be
    /// saved and is reported as an error.
    public static func repairWAV(at path: FilePath) throws(SampleFileError) -> Outcome {
        let descriptor = try open(path)
        defer { try? Syscalls.close(descriptor) }
        let fileSize: Int64
        var headBytes = [UInt8](repeating: 0, count: 4096)
        let headCount: Int
        do {
            fileSize = try Syscalls.seek(descriptor, offset: 0, from: .end)
            headCount = try headBytes.withUnsafeMutableBytes { bytes in
                try Syscalls.read(descriptor, fromAbsoluteOffset: 0, into: bytes)
            }
        } catch {
            throw SampleFileError(path: path.string, operation: "read", caught: error)
        }
        let layout: WAVHeader.Layout
        do {
            layout = try WAVHeader.parse(Array(headBytes[0..<headCount]))
        } catch {
            throw SampleFileError(path: path.string, operation: "repair", detail: error.message)
        }
        let blockAlign = Int64(max(layout.header.blockAlign, 1))
        let available = max(fileSize - Int64(layout.dataOffset), 0)
        let dataSize = min(available - available % blockAlign, Int64(UInt32.max) - Int64(layout.dataOffset))
        let riffSize = Int64(layout.dataOffset) - 8 + dataSize
        let newLength = Int64(layout.dataOffset) + dataSize
        if Int64(layout.header.dataSize) == dataSize, newLength == fileSize,
           readUInt32(headBytes, at: 4) == riffSize {
            return .alreadyComplete
        }
        if newLength != fileSize {
            do {
                try Syscalls.ftruncate(descriptor, to: newLength)
            } catch {
                throw SampleFileError(path: path.string, operation: "truncate", errno: error.errno)
            }
        }
        do {
            _ = try WAVHeader.littleEndian(UInt32(riffSize)).withUnsafeBytes { bytes in
                try Syscalls.writeAll(descriptor, toAbsoluteOffset: 4, bytes)
            }
            _ = try WAVHeader.littleEndian(UInt32(dataSize)).withUnsafeBytes { bytes in
                try Syscalls.writeAll(descriptor, toAbsoluteOffset: Int64(layout.dataSizeFieldOffset), bytes)
            }
        } catch {
            throw SampleFileError(path: path.string, operation: "fix the header of", caught: error)
        }
        try sync(descriptor, path: path)
        return .repaired(keptElements: Int(dataSize / blockAlign), droppedBytes: fileSize - newLength)
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> Int64 {
        Int64(bytes[offset]) | Int64(bytes[offset + 1]) << 8 | Int64(bytes[offset + 2]) << 16 | Int64(bytes[offset + 3]) << 24
    }
}
