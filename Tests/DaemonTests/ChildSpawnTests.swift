import Foundation
import Glibc
import Testing
import TestSupport

/// The children tests start (sound servers, daemons, `activetaskctl`) inherit none of the test
/// process's descriptors: tests run in parallel, and a file one of them has open at that moment
/// would otherwise stay open in a long-lived child (the full-disk test's filler, unlinked to free
/// space, freed nothing while a sound server held it).
@Suite("Test support: spawned children inherit no descriptor")
struct ChildSpawnTests {
    @Test("A descriptor open without O_CLOEXEC in the test process is not open in the child")
    func noInheritedDescriptor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let held = directory.appendingPathComponent("held").path
        let fd = open(held, O_CREAT | O_WRONLY, 0o644)
        try #require(fd >= 3, "open \(held): \(String(cString: strerror(errno)))")
        defer { close(fd) }
        let listing = directory.appendingPathComponent("fds").path
        let pid = try ChildSpawn.spawn(["/bin/ls", "-l", "/proc/self/fd/"], environment: [:], standardOutput: listing, standardError: nil)
        #expect(ChildSpawn.waitForExit(pid) == 0)
        let seen = try String(contentsOfFile: listing, encoding: .utf8)
        #expect(seen.contains("/proc/") && !seen.contains(held), "the child had the test's file open:\n\(seen)")
    }
}
