import Foundation
import Glibc
import SystemCalls

/// The environment espeak-ng needs, set by the executable (a library must not `setenv`: it
/// races `getenv` on ALSA and PulseAudio threads). espeak-ng initialises its audio layer
/// (libpcaudio → PulseAudio) even when it only synthesises into buffers; without
/// XDG_RUNTIME_DIR that layer writes under /tmp and ~/.config (docs/voice.md).
enum VoiceEnvironment {
    /// Gives espeak-ng a private runtime directory when the environment has none. Call before
    /// the first voice object is created.
    static func prepare() {
        guard getenv("XDG_RUNTIME_DIR") == nil else { return }
        let directory = "\(NSTemporaryDirectory())activetask-voice-\(getuid())"
        try? Syscalls.mkdir(directory, mode: 0o700)
        setenv("XDG_RUNTIME_DIR", directory, 0)
    }
}
