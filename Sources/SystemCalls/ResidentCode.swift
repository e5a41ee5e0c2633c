public import Glibc
import SystemPackage

/// The program's own code and read-only data, paged out of its memory on request: a static
/// binary keeps every page of code that ran once (start-up, a finished upload) resident, and on
/// a small device that is most of a long-running service's memory (docs/benchmarks.md,
/// "Uploads"). `pageOut()` has the kernel drop those pages now, whoever owns the files; what runs
/// again is read back from the binary, page by page (no read-ahead), so what becomes resident
/// again is what really runs. Writable data is untouched.
public enum ResidentCode {
    /// One mapping of the program's file in `/proc/self/maps` that is not writable.
    public struct Mapping: Sendable, Hashable {
        public var start: UInt
        public var end: UInt
        public var permissions: String
        /// The file mapped.
        public var path: String
        /// Bytes of its pages the process wrote (copies, no longer the file's: the loader's
        /// relocations); nil when not known (read from maps rather than smaps).
        public var anonymousBytes: Int?

        public init(start: UInt, end: UInt, permissions: String, path: String, anonymousBytes: Int? = nil) {
            self.start = start
            self.end = end
            self.permissions = permissions
            self.path = path
            self.anonymousBytes = anonymousBytes
        }

        /// Whether every resident page is the file's own, so dropping them loses nothing: no page
        /// written (from smaps), or, when that is not known, code (its pages are not written).
        public var holdsOnlyFilePages: Bool {
            if let anonymousBytes { return anonymousBytes == 0 }
            return permissions.dropFirst(2).first == "x"
        }
    }

    /// The program's own read-only and executable mappings, from `/proc/self/maps` or
    /// `/proc/self/smaps` text and the path of the running binary; with `includingLibraries`,
    /// those of every other file it maps too (its shared libraries and their data). From smaps,
    /// each carries its `Anonymous:` size.
    public static func readOnlyMappings(maps: String, executable: String, includingLibraries: Bool = false) -> [Mapping] {
        var found: [Mapping] = []
        // Whether the last header line was one of ours, for the smaps lines after it.
        var current = false
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 3, fields[0] == "Anonymous:", current, let kB = Int(fields[1]) {
                found[found.count - 1].anonymousBytes = kB * 1024
                continue
            }
            guard fields.count >= 6, fields[0].contains("-"), fields[3].contains(":") else {
                if fields.count >= 5, fields[0].contains("-") { current = false }
                continue
            }
            current = false
            guard fields[1].count >= 2, fields[1].dropFirst().first != "w" else { continue }
            let path = fields[5...].joined(separator: " ")
            guard path == executable || (includingLibraries && path.hasPrefix("/") && !path.hasSuffix(" (deleted)")) else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { continue }
            found.append(Mapping(start: start, end: end, permissions: String(fields[1]), path: path))
            current = true
        }
        return found
    }

    /// What to do with one mapping (`plan`).
    public enum Advice: Sendable, Hashable {
        /// Unmap its pages (MADV_DONTNEED): they are the file's own, read back on the next use.
        case drop
        /// Have the kernel reclaim its pages (MADV_PAGEOUT): some were written (relocations),
        /// and dropping would lose them.
        case reclaim
    }

    /// How `pageOut` treats `mapping`.
    public static func plan(for mapping: Mapping) -> Advice {
        mapping.holdsOnlyFilePages ? .drop : .reclaim
    }

    /// Pages out the running program's read-only and executable mappings (with
    /// `includingLibraries`, its shared libraries' too); returns the bytes advised. Blocks briefly
    /// (the kernel reclaims synchronously): call it from `BlockingCall.run`.
    ///
    /// MADV_PAGEOUT alone reclaims file pages only for a process that owns or may write the file,
    /// which a service user never may for /usr/local/bin or /usr/lib. So mappings that hold only
    /// the file's own pages (code; read-only data with no page written, from smaps) are dropped
    /// with MADV_DONTNEED and then evicted from the page cache with POSIX_FADV_DONTNEED (the
    /// kernel keeps every page another process maps). Read-only data with written pages (the
    /// loader's relocations), which dropping would lose, gets MADV_PAGEOUT, which only ever
    /// reclaims; a mapping only becomes read-only after the loader wrote it. Read-ahead is turned
    /// off (MADV_RANDOM) on all of them, so what runs again brings back only its own pages rather
    /// than the 128 KiB around each (docs/benchmarks.md, "A smaller daemon"). A kernel without
    /// MADV_PAGEOUT (before Linux 5.4) answers EINVAL, thrown as it is.
    public static func pageOut(includingLibraries: Bool = false) throws(SystemCallError) -> Int {
        let executable = try Syscalls.readlink("/proc/self/exe")
        let maps = String(decoding: try SmallFile.contents(of: "/proc/self/smaps"), as: UTF8.self)
        var advised = 0
        var droppedFiles: [String] = []
        for mapping in readOnlyMappings(maps: maps, executable: executable, includingLibraries: includingLibraries) {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            let advice = plan(for: mapping)
            try Syscalls.madvise(address, length: length, advice: MADV_RANDOM)
            if advice == .drop {
                try Syscalls.madvise(address, length: length, advice: MADV_DONTNEED)
                if !droppedFiles.contains(mapping.path) { droppedFiles.append(mapping.path) }
            } else {
                try Syscalls.madvise(address, length: length, advice: MADV_PAGEOUT)
            }
            advised += length
        }
        for path in droppedFiles {
            // A file that cannot be opened keeps its pages cached; the mapping is dropped anyway.
            guard let descriptor = try? Syscalls.open(FilePath(path), .readOnly, options: [.closeOnExec]) else { continue }
            defer { try? Syscalls.close(descriptor, path: path) }
            try Syscalls.fadvise(descriptor, advice: POSIX_FADV_DONTNEED, path: path)
        }
        return advised
    }
}
