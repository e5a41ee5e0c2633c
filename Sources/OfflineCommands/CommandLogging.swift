import Foundation
import Logging
import Synchronization

/// Bootstraps swift-log once for the process, to standard error. The level comes from
/// `ACTIVETASK_LOG_LEVEL` (trace … critical) when set, else `debug` with `--verbose`, else only
/// critical messages: the commands print their own errors and results.
enum CommandLogging {
    private static let bootstrapped = Mutex(false)

    static func logger(label: String, verbose: Bool = false) -> Logger {
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        if first {
            let configured = ProcessInfo.processInfo.environment["ACTIVETASK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            let level = configured ?? (verbose ? .debug : .critical)
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        return Logger(label: label)
    }
}
