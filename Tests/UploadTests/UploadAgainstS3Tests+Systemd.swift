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
        let arrived = await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }
        try await Task.sleep(for: .milliseconds(1500))
        stopUploader(pid)
        ended.withLock { $0 = true }
        let lines = try await collected.flatMap(\.assignments)
        #expect(arrived, "no receipt; the log:\n\(log("systemd.log"))")

        let states = lines.filter { $0 != "WATCHDOG=1" }
        let ready = try #require(states.firstIndex(of: "READY=1"), "\(states)")
        let stopping = try #require(states.firstIndex(of: "STOPPING=1"), "\(states)")
        let uploading = try #require(states.firstIndex { $0.hasPrefix("STATUS=0 waiting, uploading ") && $0.hasSuffix(" of 15 MiB, 0 held") }, "\(states)")
        let done = try #require(states.lastIndex(of: "STATUS=0 waiting, 0 uploading, 0 held"), "\(states)")
        #expect(ready < uploading && uploading < done && done < stopping, "\(states)")
        // At 4 MiB/s the 15 MiB take about four seconds, over which the line shows parts confirmed.
        #expect(states.contains { $0.hasPrefix("STATUS=0 waiting, uploading 5.0 of 15 MiB") || $0.hasPrefix("STATUS=0 waiting, uploading 10 of 15 MiB") }, "\(states)")
        #expect(lines.filter { $0 == "WATCHDOG=1" }.count >= 4, "\(lines)")
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
    }
}
