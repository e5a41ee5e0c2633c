public import Glibc

/// The program's own code and read-only data, paged out of its memory on request: a static
/// binary keeps every page of code that ran once (start-up, a finished upload) resident, and on
/// a small device that is most of a long-running service's memory (docs/benchmarks.md,
/// "Uploads"). `pageOut()` asks the kernel to reclaim those pages now (MADV_PAGEOUT, Linux 5.4);
/// what runs again is read back from the binary, page by page (MADV_RANDOM: no read-ahead), so
/// what becomes resident again is what really runs. Writable data is untouched.
public enum ResidentCode {
    /// One mapping of the program's file in `/proc/self/maps` that is not writable.
    public struct Mapping: Sendable, Hashable {
        public var start: UInt
        public var end: UInt
        public var permissions: String

        public init(start: UInt, end: UInt, permissions: String) {
            self.start = start
            self.end = end
            self.permissions = permissions
        }
    }

    /// The program's own read-only and executable mappings, from `/proc/self/maps` text
    /// (`maps`) and the path of the running binary; with `includingLibraries`, those of every
    /// other file it maps too (its shared libraries and their data).
    public static func readOnlyMappings(maps: String, executable: String, includingLibraries: Bool = false) -> [Mapping] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].count >= 2, fields[1].dropFirst().first != "w" else { return nil }
            let path = fields[5...].joined(separator: " ")
            guard path == executable || (includingLibraries && path.hasPrefix("/") && !path.hasSuffix(" (deleted)")) else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { return nil }
            return Mapping(start: start, end: end, permissions: String(fields[1]))
        }
    }

    /// Pages out the running program's read-only and executable mappings (with
    /// `includingLibraries`, its shared libraries' too: the kernel reclaims only pages no other
    /// process maps); returns the bytes advised. Blocks briefly (the kernel reclaims
    /// synchronously): call it from `BlockingCall.run`. A kernel without MADV_PAGEOUT answers
    /// EINVAL, thrown as it is.
    public static func pageOut(includingLibraries: Bool = false) throws(SystemCallError) -> Int {
        let executable = try Syscalls.readlink("/proc/self/exe")
        let descriptor = try Syscalls.open("/proc/self/maps", .readOnly, options: [.closeOnExec])
        defer { try? Syscalls.close(descriptor, path: "/proc/self/maps") }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try Syscalls.read(descriptor, into: $0, path: "/proc/self/maps") }
            } catch let error as SystemCallError {
                throw error
            } catch {
                throw SystemCallError("read", path: "/proc/self/maps", caught: error)
            }
            if count == 0 { break }
            text.append(contentsOf: buffer[0..<count])
        }
        var advised = 0
        for mapping in readOnlyMappings(maps: String(decoding: text, as: UTF8.self), executable: executable, includingLibraries: includingLibraries) {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            // Without read-ahead, what runs again brings back only its own pages rather than the
            // 128 KiB around each: a recording daemon then holds 25.6 MB instead of 33.2 MB
            // (docs/benchmarks.md, "A smaller daemon").
            try Syscalls.madvise(address, length: length, advice: MADV_RANDOM)
            try Syscalls.madvise(address, length: length, advice: MADV_PAGEOUT)
            advised += length
        }
        return advised
    }
}
