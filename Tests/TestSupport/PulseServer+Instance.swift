public import Foundation
import Glibc
import Synchronization

extension PulseServer {
    /// The servers the audio and session tests run, each in its own runtime directory.
    public enum Instance: String, Sendable {
        case main = "pulse-main"
        case secondary = "pulse-secondary"
        /// The microphone the conformance suite unplugs.
        case conformance = "pulse-conformance"
        /// The sink and microphone task-session tests share.
        case session = "pulse-session"
        /// The microphone a task-session test unplugs mid-task.
        case sessionFailing = "pulse-session-failing"
        /// The pipe sink of `DelayedPipeSink`, a device with a known delay.
        case delayed = "pulse-delayed"
        /// A second one, for the daemon's prompt-timing test (the audio tests hold the first).
        case delayedDaemon = "pulse-delayed-daemon"

        public func runtimeDirectory(in base: URL) -> URL { base.appendingPathComponent(rawValue) }
    }

    /// Starts `instance` under the audio tests' directory (`sharedMemory`: see
    /// `start(runtimeDirectory:sharedMemory:)`).
    public static func start(_ instance: Instance, sharedMemory: Bool = true, sink: [String] = settledNullSink) async throws -> PulseServer {
        try await start(runtimeDirectory: instance.runtimeDirectory(in: AudioTestEnvironment.directory), sharedMemory: sharedMemory, sink: sink)
    }

    /// `start(_:sharedMemory:sink:)` on the calling thread, for code that is not async.
    public static func startBlocking(_ instance: Instance, sharedMemory: Bool = true) throws -> PulseServer {
        try startBlocking(runtimeDirectory: instance.runtimeDirectory(in: AudioTestEnvironment.directory), sharedMemory: sharedMemory)
    }
}

extension PulseServer {
    /// Ends the server when the test process exits: for a server shared by the whole process,
    /// which no test stops.
    public func stopAtProcessExit() {
        _ = ProcessExitCleanup.installed
        ProcessExitCleanup.pids.withLock { $0.append(pid) }
    }
}

/// The servers to end at exit (`atexit` takes no context, so they are kept here).
private enum ProcessExitCleanup {
    static let pids = Mutex<[pid_t]>([])
    static let installed: Void = {
        atexit {
            for pid in ProcessExitCleanup.pids.withLock({ $0 }) {
                kill(pid, SIGTERM)
            }
        }
    }()
}
