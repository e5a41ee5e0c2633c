import Foundation
import Logging

/// Bootstraps swift-log once for the process, to standard error: only critical messages by
/// default (the commands print their own errors), or everything from `ACTIVETASK_LOG_LEVEL`
/// (trace … critical) up.
enum CommandLogging {
    private static let bootstrapped: Void = {
        let level = ProcessInfo.processInfo.environment["ACTIVETASK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }()

    static func logger(label: String) -> Logger {
        _ = bootstrapped
        return Logger(label: label)
    }
}
