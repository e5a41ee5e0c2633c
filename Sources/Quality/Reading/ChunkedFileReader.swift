import Foundation

/// Reads a file in fixed-size chunks, so that files of any length are read in bounded memory.
enum ChunkedFileReader {
    static let chunkSize = 256 * 1024

    /// Calls `body` with each chunk of the file at `url`, in order.
    static func forEachChunk(of url: URL, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw QualityError(path: url.path, reason: "The file could not be opened (\(error.localizedDescription)); check that it exists and is readable.")
        }
        defer { try? handle.close() }
        while true {
            let data: Data?
            do {
                data = try handle.read(upToCount: chunkSize)
            } catch {
                throw QualityError(path: url.path, reason: "The file could not be read (\(error.localizedDescription)).")
            }
            guard let data, !data.isEmpty else { return }
            try data.withUnsafeBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
        }
    }
}
