import Foundation

/// Output helpers for the CLI.
enum Console {
    /// Writes `line` and a newline to standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
