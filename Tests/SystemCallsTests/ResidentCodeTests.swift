import SystemCalls
import Testing

/// The mappings ResidentCode pages out: the program's own, read-only or executable, never a
/// writable one or another file's. The page-out itself is checked on activetask-upload
/// (UploadAgainstS3Tests+Systemd): done here, it would page the test binary out from under the
/// tests running beside it and leave the next test process a cold page cache.
@Suite("ResidentCode")
struct ResidentCodeTests {
    static let upload = "/usr/local/bin/activetask-upload"
    static let maps = """
    55dc49ab4000-55dc49f20000 r--p 00000000 fe:00 5328236                    /usr/local/bin/activetask-upload
    55dc49f20000-55dc4afc9000 r-xp 0046b000 fe:00 5328236                    /usr/local/bin/activetask-upload
    55dc4afc9000-55dc4b069000 r--p 01513000 fe:00 5328236                    /usr/local/bin/activetask-upload
    55dc4b069000-55dc4d47b000 rw-p 015b2000 fe:00 5328236                    /usr/local/bin/activetask-upload
    55dc4d47b000-55dc4d500000 rw-p 00000000 00:00 0                          [heap]
    7f0000000000-7f0000100000 r-xp 00000000 fe:00 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6
    7f0000200000-7f0000300000 r-xp 00000000 fe:00 99                         /opt/with space/tool
    """

    @Test("Only the program's own read-only and executable mappings, parsed from /proc/self/maps", arguments: [
        ("/usr/local/bin/activetask-upload", [
            ResidentCode.Mapping(start: 0x55dc49ab4000, end: 0x55dc49f20000, permissions: "r--p", path: "/usr/local/bin/activetask-upload"),
            ResidentCode.Mapping(start: 0x55dc49f20000, end: 0x55dc4afc9000, permissions: "r-xp", path: "/usr/local/bin/activetask-upload"),
            ResidentCode.Mapping(start: 0x55dc4afc9000, end: 0x55dc4b069000, permissions: "r--p", path: "/usr/local/bin/activetask-upload"),
        ]),
        ("/opt/with space/tool", [ResidentCode.Mapping(start: 0x7f0000200000, end: 0x7f0000300000, permissions: "r-xp", path: "/opt/with space/tool")]),
        ("/usr/local/bin/other", []),
    ])
    func mappings(executable: String, expected: [ResidentCode.Mapping]) {
        #expect(ResidentCode.readOnlyMappings(maps: Self.maps, executable: executable) == expected)
    }

    @Test("With the libraries: every file's read-only and executable mappings, never a writable or anonymous one")
    func withLibraries() {
        #expect(ResidentCode.readOnlyMappings(maps: Self.maps, executable: "/usr/local/bin/activetask-upload", includingLibraries: true) == [
            ResidentCode.Mapping(start: 0x55dc49ab4000, end: 0x55dc49f20000, permissions: "r--p", path: Self.upload),
            ResidentCode.Mapping(start: 0x55dc49f20000, end: 0x55dc4afc9000, permissions: "r-xp", path: Self.upload),
            ResidentCode.Mapping(start: 0x55dc4afc9000, end: 0x55dc4b069000, permissions: "r--p", path: Self.upload),
            ResidentCode.Mapping(start: 0x7f0000000000, end: 0x7f0000100000, permissions: "r-xp", path: "/usr/lib/x86_64-linux-gnu/libc.so.6"),
            ResidentCode.Mapping(start: 0x7f0000200000, end: 0x7f0000300000, permissions: "r-xp", path: "/opt/with space/tool"),
        ])
    }

    static let smaps = """
    55dc49ab4000-55dc49f20000 r--p 00000000 fe:00 5328236                    /usr/local/bin/activetaskd
    Size:               4528 kB
    Rss:                 900 kB
    Anonymous:             0 kB
    55dc49f20000-55dc4afc9000 r-xp 0046b000 fe:00 5328236                    /usr/local/bin/activetaskd
    Rss:               13000 kB
    Anonymous:             0 kB
    55dc4afc9000-55dc4b069000 r--p 01513000 fe:00 5328236                    /usr/local/bin/activetaskd
    Rss:                 640 kB
    Anonymous:           640 kB
    55dc4b069000-55dc4d47b000 rw-p 015b2000 fe:00 5328236                    /usr/local/bin/activetaskd
    Anonymous:          1800 kB
    55dc4d47b000-55dc4d500000 rw-p 00000000 00:00 0                          [heap]
    Anonymous:           500 kB
    """

    @Test("From smaps, each mapping's written pages; only those holding the file's own pages alone may be dropped")
    func smapsAnonymous() {
        let found = ResidentCode.readOnlyMappings(maps: Self.smaps, executable: "/usr/local/bin/activetaskd")
        #expect(found.map(\.anonymousBytes) == [0, 0, 640 * 1024])
        // The relocated read-only data (written by the loader) is never dropped, only reclaimed.
        #expect(found.map(\.holdsOnlyFilePages) == [true, true, false])
    }

    @Test("Dropping needs proof: no written page known, or code when smaps is not read", arguments: [
        ("r-xp", nil, true), ("r--p", nil, false), ("r--p", 0, true), ("r--p", 4096, false), ("r-xp", 4096, false),
    ] as [(String, Int?, Bool)])
    func onlyFilePages(permissions: String, anonymous: Int?, expected: Bool) {
        #expect(ResidentCode.Mapping(start: 0, end: 4096, permissions: permissions, path: "/x", anonymousBytes: anonymous).holdsOnlyFilePages == expected)
    }

    @Test("A page-out drops the file's own pages and reclaims written ones", arguments: [
        ("r-xp", nil, ResidentCode.Advice.drop), ("r--p", 0, .drop), ("r--p", 4096, .reclaim), ("r--p", nil, .reclaim),
    ] as [(String, Int?, ResidentCode.Advice)])
    func plan(permissions: String, anonymous: Int?, expected: ResidentCode.Advice) {
        let mapping = ResidentCode.Mapping(start: 0, end: 4096, permissions: permissions, path: "/x", anonymousBytes: anonymous)
        #expect(ResidentCode.plan(for: mapping) == expected)
    }
}
