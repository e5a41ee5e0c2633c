public import SystemPackage
import Glibc

extension SampleFileRepair {
    /// Makes a WAV file cut by a crash valid: the RIFF and data sizes are set from the file's
    /// real length and a partial last frame is cut off. A file shorter than its header cannot be
    /// saved and is reported as an error.
    public static func repairWAV(at path: FilePath) throws(SampleFileError) -> Outcome {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.closeOnExec])
        } catch {
            throw SampleFileError(path: path.string, operation: "open for repair", errno: error as? Errno)
        }
        defer { try? descriptor.close() }
        let fileSize: Int64
        var headBytes = [UInt8](repeating: 0, count: 4096)
        let headCount: Int
        do {
            fileSize = try descriptor.seek(offset: 0, from: .end)
            headCount = try headBytes.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: 0, into: $0) }
        } catch {
            throw SampleFileError(path: path.string, operation: "read", errno: error as? Errno)
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
        if newLength != fileSize, ftruncate(descriptor.rawValue, off_t(newLength)) != 0 {
            throw SampleFileError(path: path.string, operation: "truncate", errno: Errno(rawValue: errno))
        }
        do {
            try WAVHeader.littleEndian(UInt32(riffSize)).withUnsafeBytes {
                _ = try descriptor.writeAll(toAbsoluteOffset: 4, $0)
            }
            try WAVHeader.littleEndian(UInt32(dataSize)).withUnsafeBytes {
                _ = try descriptor.writeAll(toAbsoluteOffset: Int64(layout.dataSizeFieldOffset), $0)
            }
        } catch {
            throw SampleFileError(path: path.string, operation: "fix the header of", errno: error as? Errno)
        }
        if fsync(descriptor.rawValue) != 0 {
            throw SampleFileError(path: path.string, operation: "fsync", errno: Errno(rawValue: errno))
        }
        return .repaired(keptElements: Int(dataSize / blockAlign), droppedBytes: fileSize - newLength)
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> Int64 {
        Int64(bytes[offset]) | Int64(bytes[offset + 1]) << 8 | Int64(bytes[offset + 2]) << 16 | Int64(bytes[offset + 3]) << 24
    }
}
