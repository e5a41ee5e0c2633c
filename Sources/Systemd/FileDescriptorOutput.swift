import Glibc

/// Whole-line writes to a file descriptor, for the rare log line the journal cannot take.
struct FileDescriptorOutput: Sendable {
    let descriptor: Int32

    static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
