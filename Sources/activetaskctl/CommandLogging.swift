import Foundation
import Logging
import Synchronization

/// Bootstraps swift-log once for the executable: to standard error, `info` or `debug`.
enum CommandLogging {
    private static let bootstrapped = Mutex(false)

    static func logger(label: String, verbose: Bool) -> Logger {
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        if first {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = verbose ? .debug : .warning
                return handler
            }
        }
        return Logger(label: label)
    }
}
