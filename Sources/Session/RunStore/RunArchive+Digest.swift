public import Foundation
import CryptoCalls
import SystemCalls
import SystemPackage

extension RunArchive {
    /// The SHA-256 of the archive at `url`, lowercase hex as `sha256sum` prints it, read in
    /// 128 KiB pieces (memory does not grow with the archive). It blocks on the disk: the daemon
    /// calls it from `RunStore.finish`, which runs on a dedicated thread (`BlockingCall`), never
    /// on an actor. Recorded with the run (docs/runs.md, "Uploads") so that retention deletes a
    /// run only on a receipt for these very bytes (docs/upload.md, "No receipt, no deletion").
    public static func sha256(of url: URL) throws(RunStoreError) -> String {
        let operation = "compute the archive's SHA-256"
        let advice = "Check the disk; the run stays unfinished and recovery writes its archive again at the next start."
        do {
            let descriptor = try Syscalls.open(FilePath(url.path), .readOnly, options: [.closeOnExec])
            defer { try? Syscalls.close(descriptor, path: url.path) }
            let digest = try LibCrypto.Digest(.sha256)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128 << 10, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try Syscalls.read(descriptor, into: buffer, path: url.path)
                if count == 0 { break }
                try digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            return LibCrypto.hex(try digest.finish())
        } catch let error as SystemCallError {
            throw RunStoreError(operation, path: url.path, reason: error.reason, advice: advice)
        } catch {
            throw RunStoreError(operation, path: url.path, reason: "\(error)", advice: advice)
        }
    }
}
