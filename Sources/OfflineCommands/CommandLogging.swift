import Foundation
import Logging

/// The logger a command logs with. The executable bootstraps swift-log (to standard error); the
/// level is the command's: `ACTIVETASK_LOG_LEVEL` (trace … critical) when set, else `debug` with
/// `--verbose`, else only critical messages, since the commands print their own errors and
/// results.
enum CommandLogging {
    static func logger(label: String, verbose: Bool = false) -> Logger {
        var logger = Logger(label: label)
        let configured = ProcessInfo.processInfo.environment["ACTIVETASK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        logger.logLevel = configured ?? (verbose ? .debug : .critical)
        return logger
    }
}
