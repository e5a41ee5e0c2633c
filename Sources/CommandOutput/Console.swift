import Foundation

/// Output helpers for activetaskctl's commands.
public enum Console {
    /// Writes `line` and a newline to standard error.
    public static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
