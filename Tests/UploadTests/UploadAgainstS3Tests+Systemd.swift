import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Upload

extension UploadAgainstS3Tests {
    @Test("Under a NOTIFY_SOCKET the test owns: READY, a status line with the bytes sent, watchdog pings, STOPPING on SIGTERM")
    func systemdNotifications() async throws {
        let run = try finishedRun(size: 15 << 20, seed: 40)
        let notify = try NotifySocket(path: scratch.url.appendingPathComponent("notify.sock").path)
        // WATCHDOG_USEC without WATCHDOG_PID applies to whichever process reads it.
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576", "--max-bytes-per-second", "4194304"],
                                    environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"], log: "systemd.log")
        let ended = Mutex(false)
        async let collected = onOwnThread { notify.messages { ended.withLock { $0 } } }
        // The most of its binary resident while it uploads (read as the upload goes on: the
        // page-out may come within two seconds of the receipt, before this test looks).
        var busy = 0
        let arrived = await waitUntil(60) {
            busy = max(busy, Self.residentKilobytesOfExecutable(pid))
            return FileManager.default.fileExists(atPath: receipt(run.entry).path)
        }
        // Idle again, the uploader pages its own code out (docs/upload.md, "Memory"): what of its
        // binary is resident drops within the status loop's next two-second look (measured:
        // about half; without the page-out it stays as it was), though the scan every
        // pollSeconds brings a little back.
        // Waited for as long as a loaded machine needs (the suite's tests run side by side); the
        // figure itself is measured in docs/benchmarks.md, not here.
        let idle = await waitUntil(60) { Self.residentKilobytesOfExecutable(pid) < busy * 3 / 4 }
        let after = Self.residentKilobytesOfExecutable(pid)
        stopUploader(pid)
        ended.withLock { $0 = true }
        let lines = try await collected.flatMap(\.assignments)
        #expect(arrived, "no receipt; the log:\n\(log("systemd.log"))")

        let states = lines.filter { $0 != "WATCHDOG=1" }
        let ready = try #require(states.firstIndex(of: "READY=1"), "\(states)")
        let stopping = try #require(states.firstIndex(of: "STOPPING=1"), "\(states)")
        let uploading = try #require(states.firstIndex { $0.hasPrefix("STATUS=0 waiting, uploading ") && $0.hasSuffix(" of 15 MiB, 0 held") }, "\(states)")
        let done = try #require(states.lastIndex(of: "STATUS=0 waiting, 0 uploading, 0 held"), "\(states)")
        #expect(ready < uploading && uploading < done && done < stopping, "\(states)\nthe log:\n\(log("systemd.log"))")
        // At 4 MiB/s the 15 MiB take about four seconds, over which the line shows parts confirmed.
        #expect(states.contains { $0.hasPrefix("STATUS=0 waiting, uploading 5.0 of 15 MiB") || $0.hasPrefix("STATUS=0 waiting, uploading 10 of 15 MiB") }, "\(states)")
        #expect(lines.filter { $0 == "WATCHDOG=1" }.count >= 4, "\(lines)")
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        #expect(busy > 1024 && idle, "the binary's resident pages: \(busy) kB after the upload, \(after) kB idle")
    }

    /// The resident kilobytes of the process's own executable's mappings (`/proc/PID/smaps`).
    static func residentKilobytesOfExecutable(_ pid: pid_t) -> Int {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
              let smaps = try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8) else { return 0 }
        var total = 0
        var inExecutable = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                inExecutable = fields.count >= 6 && fields[5...].joined(separator: " ") == executable
            } else if inExecutable, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }
}
