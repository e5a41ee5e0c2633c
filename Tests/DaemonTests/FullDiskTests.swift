import Foundation
import Glibc
import Testing
import TestSupport

/// The data directory fills up during a recording (a 1 MiB tmpfs mounted in a private mount
/// namespace, nearly filled before the run): the recorders fail with an error that says to free
/// space, the daemon stays up, and once space is freed the next run works and the cut run is
/// repaired and finished (docs/runs.md, "A full disk").
@Suite("activetaskd: the data disk fills during a recording", .enabled(if: getuid() == 0, "mounting a tmpfs in a private mount namespace needs root"))
struct FullDiskTests {
    /// The daemon with its data directory on a tmpfs of `size` of its own: `unshare` gives it a
    /// private mount namespace (the host's mounts are never touched) and execs it after the
    /// mount, so the daemon's pid is the child's and the test reaches the files through
    /// `/proc/PID/root`.
    static func startOnSmallDisk(_ fixture: DaemonFixture, size: String) async throws -> (DaemonProcess, URL) {
        try FileManager.default.createDirectory(at: fixture.dataDirectory, withIntermediateDirectories: true)
        let script = #"mount -t tmpfs -o size="$1",mode=0755 activetask-test "$2" && shift 2 && exec "$@""#
        let command = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", size,
                       fixture.dataDirectory.path] + fixture.arguments()
        let daemon = try await fixture.start(command)
        return (daemon, URL(fileURLWithPath: "/proc/\(daemon.pid)/root\(fixture.dataDirectory.path)"))
    }

    /// Bytes free on the filesystem holding `url`.
    static func freeBytes(_ url: URL) throws -> Int {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { throw DaemonTestFailure("statvfs \(url.path): \(String(cString: strerror(errno)))") }
        return Int(info.f_bavail) * Int(info.f_bsize)
    }

    /// What is on the small disk, file by file with sizes, and the bytes free: said when a run
    /// finds no space where the test expected room.
    static func listing(_ data: URL) -> String {
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: data.path)) ?? []
        let sizes = files.sorted().map { name -> String in
            let size = (try? FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(name).path)[.size] as? Int) ?? nil
            return "\(name)\t\(size.map(String.init) ?? "?")"
        }
        return "free: \((try? freeBytes(data)).map(String.init) ?? "?") bytes\n" + sizes.joined(separator: "\n")
    }

    /// Runs `task` with `activetaskctl run --auto --json` while a subscriber collects the run's
    /// events up to `taskFinished`; returns the summary line and the events.
    static func run(_ fixture: DaemonFixture, task file: String, on data: URL) async throws -> (summary: [String: Any], events: [[String: Any]]) {
        let watcher = try fixture.subscriber(to: ["actionFailed", "warning", "taskFinished"])
        let output = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(output.status == 0, "\(output.standardError)\n\(Self.listing(data))")
        let seen = try await offThread { () throws -> [[String: Any]] in
            var seen: [[String: Any]] = []
            while true {
                let message = try watcher.readMessage()
                guard let event = message["params"] as? [String: Any] else { continue }
                seen.append(event)
                if event["kind"] as? String == "taskFinished" { return seen }
            }
        }
        return (try RunFiles.lastLine(of: output.standardOutput), seen)
    }

    @Test("A full data disk fails the recorders with 'free space', the daemon stays up, and the next run after freeing space works and repairs the cut run")
    func fullDisk() async throws {
        let fixture = try await DaemonFixture("fulldisk")
        let (daemon, data) = try await Self.startOnSmallDisk(fixture, size: "1m")
        // Leave about 300 KiB: the motion file and the WAV fill it within about three seconds.
        let filler = data.appendingPathComponent("filler")
        let fill = try Self.freeBytes(data) - 300 * 1024
        try Data(count: max(fill, 0)).write(to: filler)

        let file = try fixture.write(task: DaemonTasks.walk("FullDisk", walking: 5), name: "walk")
        let (summary, events) = try await Self.run(fixture, task: file, on: data)
        let failures = events.filter { $0["kind"] as? String == "actionFailed" }
        #expect(!failures.isEmpty, "no recorder failed: \(events)")
        for failure in failures {
            let message = failure["message"] as? String ?? ""
            #expect(message.contains("No space left on device") && message.contains("Free space on the data disk"), "\(failure)")
        }
        let warnings = events.filter { $0["kind"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains("could not be finished on disk") && $0.contains("once space is freed") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("NSCocoaErrorDomain") }, "a warning gives Foundation's text instead of a sentence: \(warnings)")
        let uuid = try #require(summary["taskRunUUID"] as? String)
        let cut = data.appendingPathComponent("runs/\(uuid)")
        // The daemon is up and answers while the disk is full.
        let client = try LineClient(path: fixture.socket)
        #expect(try client.result("daemon.info")["session"] as? String == "finished")
        // A new run needs the disk: refused with what to do, leaving no half-made run directory.
        _ = try client.result("task.load", ["path": file])
        let start = try client.call("run.start")
        let refusal = start["error"] as? [String: Any]
        #expect((refusal?["message"] as? String)?.contains("Free space on the data disk") == true, "\(start)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("runs").path) == [uuid])

        // What is on the disk now, all of which the repair must keep: every whole accelerometer
        // record (the last one may be cut) and every byte of sound.
        let cutMotion = cut.appendingPathComponent("walk_motion.json"), cutSound = cut.appendingPathComponent("roomSound.wav")
        let recordsOnDisk = String(decoding: try Data(contentsOf: cutMotion), as: UTF8.self).components(separatedBy: "\"accelerometer\"").count - 1
        let soundOnDisk = try Data(contentsOf: cutSound).count

        // Space freed: the next run records whole, and the cut run is finished first.
        try FileManager.default.removeItem(at: filler)
        let next = try fixture.write(task: DaemonTasks.walk("AfterFullDisk", walking: 1), name: "next")
        let (nextSummary, nextEvents) = try await Self.run(fixture, task: next, on: data)
        #expect(nextSummary["status"] as? String == "completed", "\(nextSummary)")
        #expect(!nextEvents.contains { ["actionFailed", "warning"].contains($0["kind"] as? String) }, "\(nextEvents)")
        let nextDirectory = data.appendingPathComponent("runs/\(try #require(nextSummary["taskRunUUID"] as? String))")
        let motion = try RunFiles.Motion(nextDirectory.appendingPathComponent("walk_motion.json"))
        #expect(motion.samples.count > 100 && motion.countFits(frequency: 100), "\(motion.samples.count) samples over \(motion.span) s")
        #expect(RunFiles.isCompleteWAV(nextDirectory.appendingPathComponent("roomSound.wav")))

        let manifest = try RunFiles.manifest(of: cut)
        #expect(manifest.status == "final" && manifest.finishReason == "interrupted", "\(manifest)")
        let kept = try RunFiles.Motion(cutMotion)
        #expect(kept.samples.count > 50 && kept.samples.count >= recordsOnDisk - 1,
                "\(kept.samples.count) samples kept of the cut run, \(recordsOnDisk) were on the disk")
        #expect(RunFiles.isCompleteWAV(cutSound))
        let soundKept = try Data(contentsOf: cutSound).count
        #expect(soundKept >= soundOnDisk - 4, "the repaired WAV has \(soundKept) bytes, \(soundOnDisk) were on the disk")
        _ = try RunFiles.object(cut.appendingPathComponent("taskResult.json"))
        #expect(FileManager.default.fileExists(atPath: cut.appendingPathComponent("\(uuid).zip").path))
        #expect((try client.result("runs.list")["runs"] as? [[String: Any]])?.count == 2)
        let runs = try await fixture.ctl("runs")
        #expect(runs.standardOutput.contains("\(uuid)\tinterrupted"), "\(runs.standardOutput)")

        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
