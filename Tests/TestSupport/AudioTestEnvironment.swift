public import Foundation
import Glibc

/// The process-wide ALSA set-up for these tests. ALSA reads `ALSA_CONFIG_PATH` when it loads its
/// configuration, so it is set once, before any test opens a PCM, to alsa.conf plus a file of
/// our own PCMs:
/// - `test_cap:FILE=…` captures the raw bytes of FILE (`type file`, not paced);
/// - `test_play:FILE=…` plays into FILE as raw bytes (`type file`, not paced);
/// - `test_pulse_play` / `test_pulse_cap`: the null sink of the PulseAudio server that
///   `PulseServer.start(.main)` runs, and its monitor (paced in real time);
/// - `test_pulse_play_xrun`: the same sink with `handle_underrun` so a stalled writer sees EPIPE;
/// - `test_pulse_mic`: the monitor of a second server (`.secondary`), killed by a test;
/// - `test_pulse_conformance_mic`: the same on a third server, killed by the conformance suite;
/// - `test_session_play` / `test_session_cap`: the task-session tests' server;
/// - `test_session_failing_cap`: the monitor of a server a task-session test kills mid-task;
/// - `test_pulse_delayed`: the pipe sink of `DelayedPipeSink`, heard a known delay after it is written.
public enum AudioTestEnvironment {
    /// The directory holding the config and the servers' runtime directories.
    public static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("activetask-audio-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let runtime = directory.appendingPathComponent("xdg")
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let main = PulseServer.Instance.main.runtimeDirectory(in: directory).path
        let secondary = PulseServer.Instance.secondary.runtimeDirectory(in: directory).path
        let conformance = PulseServer.Instance.conformance.runtimeDirectory(in: directory).path
        let session = PulseServer.Instance.session.runtimeDirectory(in: directory).path
        let sessionFailing = PulseServer.Instance.sessionFailing.runtimeDirectory(in: directory).path
        let delayed = PulseServer.Instance.delayed.runtimeDirectory(in: directory).path
        let config = ALSATestPCMs.fileCapture(named: "test_cap") + """
        pcm.test_play {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave.pcm "null"
            file $FILE
            format "raw"
        }
        pcm.test_pulse_play { type pulse server "unix:\(main)/pulse/native" device "null" }
        pcm.test_pulse_play_xrun { type pulse server "unix:\(main)/pulse/native" device "null" handle_underrun true }
        pcm.test_pulse_cap { type pulse server "unix:\(main)/pulse/native" device "null.monitor" }
        pcm.test_pulse_mic { type pulse server "unix:\(secondary)/pulse/native" device "null.monitor" }
        pcm.test_session_play { type pulse server "unix:\(session)/pulse/native" device "null" }
        pcm.test_session_cap { type pulse server "unix:\(session)/pulse/native" device "null.monitor" }
        pcm.test_session_failing_cap { type pulse server "unix:\(sessionFailing)/pulse/native" device "null.monitor" }
        pcm.test_pulse_conformance_mic { type pulse server "unix:\(conformance)/pulse/native" device "null.monitor" }
        pcm.test_pulse_delayed { type pulse server "unix:\(delayed)/pulse/native" device "delayed" }

        """
        let configURL = directory.appendingPathComponent("test-alsa.conf")
        try? config.write(to: configURL, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:\(configURL.path)", 1)
        // espeak-ng and the pulse client library write under XDG_RUNTIME_DIR; keep them here.
        setenv("XDG_RUNTIME_DIR", runtime.path, 1)
        return directory
    }()

    /// The server behind `test_session_*`, started once for the process.
    public static let sessionServer: Result<PulseServer, any Error> = {
        _ = directory
        return Result {
            let server = try PulseServer.startBlocking(.session)
            server.stopAtProcessExit()
            return server
        }
    }()

    /// A fresh scratch directory for one test.
    public static func scratch(_ name: String) -> URL {
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether the PulseAudio server and the ALSA pulse plugin are installed.
    public static let hasPulse: Bool = FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
        && ["x86_64", "aarch64", "arm"].contains { architecture in
            let directory = "/usr/lib/\(architecture)-linux-gnu\(architecture == "arm" ? "eabihf" : "")/alsa-lib"
            return FileManager.default.fileExists(atPath: "\(directory)/libasound_module_pcm_pulse.so")
        }
}
