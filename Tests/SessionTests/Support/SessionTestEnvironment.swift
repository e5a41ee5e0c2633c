import Foundation
import TestSupport

/// Where session tests write, and the paced PulseAudio devices they record from and speak to
/// (`test_session_cap`, `test_session_play` of the shared ALSA test configuration).
enum SessionTestEnvironment {
    static let captureDevice = "test_session_cap"
    static let playbackDevice = "test_session_play"

    /// Starts the shared server once; throws when PulseAudio is not available.
    static func startAudio() throws {
        _ = try AudioTestEnvironment.sessionServer.get()
    }

    /// A fresh scratch directory for one test.
    static func scratch(_ name: String) -> URL {
        AudioTestEnvironment.scratch("session-\(name)")
    }
}
