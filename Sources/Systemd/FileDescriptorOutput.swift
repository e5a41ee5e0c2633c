import Glibc
import SystemCalls
import SystemPackage

/// Whole-line writes to a file descriptor, for the rare log line the journal cannot take.
struct FileDescriptorOutput: Sendable {
    let descriptor: Int32

    static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

    /// Writes all of `text`; a descriptor that refuses it loses the line (there is nowhere
    /// left to report that).
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { try? Syscalls.writeAll(FileDescriptor(rawValue: descriptor), $0) }
    }
}
