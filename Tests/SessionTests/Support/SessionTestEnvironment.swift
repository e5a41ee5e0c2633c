import Foundation
import Glibc

/// The process-wide ALSA set-up of the session tests, made before any test opens a PCM:
/// `session_cap:FILE=…` captures the raw bytes of FILE and `session_play:FILE=…` plays into
/// FILE (both `type file`, not paced in real time).
enum SessionTestEnvironment {
    static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("activetask-session-tests-\(getpid())")
        let runtime = directory.appendingPathComponent("xdg")
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let config = """
        pcm.session_cap {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave.pcm "null"
            file "/dev/null"
            infile $FILE
            format "raw"
        }
        pcm.session_play {
            @args [ FILE ]
            @args.FILE { type string }
            type file
            slave.pcm "null"
            file $FILE
            format "raw"
        }

        """
        let configURL = directory.appendingPathComponent("session-alsa.conf")
        try? config.write(to: configURL, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:\(configURL.path)", 1)
        setenv("XDG_RUNTIME_DIR", runtime.path, 1)
        return directory
    }()

    /// A fresh scratch directory for one test.
    static func scratch(_ name: String) -> URL {
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A capture file of `seconds` of 16-bit mono 16 kHz noise-like audio (longer than any
    /// recording, since a file PCM returns stale data past its end).
    static func captureFile(in directory: URL, seconds: Double = 120) -> URL {
        let url = directory.appendingPathComponent("capture.raw")
        var generator = SystemRandomNumberGenerator()
        let frames = Int(seconds * 48_000)
        var bytes = [UInt8](repeating: 0, count: frames * 2)
        for index in stride(from: 0, to: bytes.count, by: 2) {
            let sample = Int16.random(in: -3000...3000, using: &generator)
            bytes[index] = UInt8(truncatingIfNeeded: sample)
            bytes[index + 1] = UInt8(truncatingIfNeeded: sample >> 8)
        }
        FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url
    }
}
