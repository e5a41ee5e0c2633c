import Audio
import BlockingCalls
import Foundation
import Glibc
import SystemCalls
import TestSupport
import Testing

/// The voice playback thread's real-time request, end to end through `activetaskctl say` (the
/// daemon's prompt player): a process that may use real time plays the prompt from a SCHED_FIFO
/// thread; one that may not (uid 65534 with RLIMIT_RTPRIO 0, as under the shipped unit) plays
/// it all the same at normal priority. Each says which in its one log line.
@Suite("Voice playback scheduling", .enabled(if: PackagePaths.activetaskctl != nil, "activetaskctl is not built next to the test bundle"))
struct PlaybackSchedulingTests {
    /// Speaks a short prompt into a file PCM in a directory uid 65534 may write, through
    /// `launcher` (setpriv, prlimit) when given; returns the output and the bytes played.
    static func say(launcher: [String]) async throws -> (output: CommandRunner.Output, played: Int) {
        _ = AudioTestEnvironment.directory
        let directory = AudioTestEnvironment.scratch("playback-scheduling")
        // The child's own XDG_RUNTIME_DIR (espeak-ng's and libpulse's), owned by whoever it runs as.
        let runtime = directory.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        for path in [directory.path, runtime.path] {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: path)
        }
        let played = directory.appendingPathComponent("said.raw")
        let ctl = try #require(PackagePaths.activetaskctl)
        let arguments = ["say", "Turn around.", "--playback-device", "test_play:FILE=\(played.path)"]
        let output: CommandRunner.Output
        if launcher.isEmpty {
            output = try await CommandRunner.run(ctl, arguments, environment: ["ACTIVETASK_LOG_LEVEL": "info", "XDG_RUNTIME_DIR": runtime.path])
        } else {
            output = try await CommandRunner.run(
                URL(fileURLWithPath: launcher[0]), Array(launcher.dropFirst()) + [ctl.path] + arguments,
                environment: ["ACTIVETASK_LOG_LEVEL": "info", "XDG_RUNTIME_DIR": runtime.path])
        }
        let bytes = (try? Data(contentsOf: played).count) ?? 0
        try? FileManager.default.removeItem(at: directory)
        return (output, bytes)
    }

    /// Whether this process may give a thread SCHED_FIFO 10 (root: CAP_SYS_NICE).
    static var mayUseRealTime: Bool {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let limit = (try? Syscalls.realTimePriorityLimit().soft) ?? 0
        return RealTimePolicy.hasNiceCapability(status: status) || limit >= 10
    }

    @Test("The capture thread asks for one priority below playback, and none when playback asks for none", arguments: [
        (10, 9), (2, 1), (1, 1), (0, 0),
    ])
    func capturePriority(playback: Int, capture: Int) {
        #expect(MicrophoneSettings.capturePriority(belowPlayback: playback) == capture)
    }

    @Test("With the right, the prompt is played from a SCHED_FIFO 10 thread, and the log says so once")
    func privileged() async throws {
        let (output, played) = try await Self.say(launcher: [])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(played > 22_050, "more than half a second of speech")
        let lines = output.standardError.split(separator: "\n").filter { $0.contains("Voice playback scheduling") }
        #expect(lines.count == 1, "\(output.standardError)")
        if Self.mayUseRealTime {
            #expect(lines.first?.contains("scheduling=SCHED_FIFO") == true, "\(output.standardError)")
            #expect(lines.first?.contains("SCHED_FIFO at priority 10.") == true, "\(output.standardError)")
        } else {
            #expect(lines.first?.contains("scheduling=normal") == true, "\(output.standardError)")
        }
    }

    @Test(
        "Without the right (uid 65534, RLIMIT_RTPRIO 0) the prompt still plays, at normal priority",
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs root, setpriv and prlimit (util-linux)"))
    func unprivileged() async throws {
        let (output, played) = try await Self.say(launcher: [
            "/usr/bin/prlimit", "--rtprio=0", "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(played > 22_050, "more than half a second of speech")
        let lines = output.standardError.split(separator: "\n").filter { $0.contains("Voice playback scheduling") }
        #expect(lines.count == 1, "\(output.standardError)")
        #expect(lines.first?.contains("scheduling=normal") == true, "\(output.standardError)")
        #expect(lines.first?.contains("rtprioLimit=0") == true, "\(output.standardError)")
        #expect(lines.first?.contains("runs at normal priority") == true, "\(output.standardError)")
    }
}
