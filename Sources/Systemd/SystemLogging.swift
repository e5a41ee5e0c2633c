import Glibc
public import Logging
import SystemCalls
import SystemPackage

/// Chooses where the daemon's logs go: the journal when systemd started it, plain stderr
/// otherwise. Only executables call this (libraries take a `Logger`).
public enum SystemLogging {
    /// Where logs go.
    public enum Destination: Sendable, Equatable {
        case journal
        case standardError
    }

    /// The journal when stderr is the journal stream systemd set up (JOURNAL_STREAM names
    /// stderr's device and inode) or when running as a systemd service (INVOCATION_ID) with a
    /// journal socket present; else stderr.
    public static func destination(environment: [String: String]) -> Destination {
        guard journalSocketExists() else { return .standardError }
        if let stream = environment["JOURNAL_STREAM"], stream == standardErrorIdentity() { return .journal }
        if environment["INVOCATION_ID"] != nil, environment["JOURNAL_STREAM"] == nil { return .journal }
        return .standardError
    }

    /// A handler factory for `LoggingSystem.bootstrap`, writing to `destination` under `identifier`.
    public static func handlerFactory(
        identifier: String, destination: Destination, logLevel: Logger.Level = .info
    ) -> @Sendable (String) -> any LogHandler {
        { label in
            switch destination {
            case .journal:
                var handler = JournalLogHandler(label: label, identifier: identifier)
                handler.logLevel = logLevel
                return handler
            case .standardError:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = logLevel
                return handler
            }
        }
    }

    /// `"<st_dev>:<st_ino>"` of stderr, the format of JOURNAL_STREAM (systemd.exec(5)).
    static func standardErrorIdentity() -> String? {
        guard let status = try? Syscalls.fstat(FileDescriptor(rawValue: STDERR_FILENO)) else { return nil }
        return "\(status.st_dev):\(status.st_ino)"
    }

    static func journalSocketExists() -> Bool {
        (try? Syscalls.access("/run/systemd/journal/socket", W_OK)) != nil
    }
}
