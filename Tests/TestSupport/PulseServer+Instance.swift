public import Foundation

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

        public func runtimeDirectory(in base: URL) -> URL { base.appendingPathComponent(rawValue) }
    }

    /// Starts `instance` under the audio tests' directory.
    public static func start(_ instance: Instance) throws -> PulseServer {
        try start(runtimeDirectory: instance.runtimeDirectory(in: AudioTestEnvironment.directory))
    }
}
