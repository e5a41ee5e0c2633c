import Foundation
import TaskModel

/// Prints command results as JSON the way the run directory stores them: SageResearch
/// timestamps (milliseconds and offset), sorted keys, slashes unescaped.
public enum JSONOutput {
    public static func string(_ value: some Encodable, prettyPrinted: Bool = true) throws -> String {
        String(decoding: try ResultCoding.makeEncoder(prettyPrinted: prettyPrinted).encode(value), as: UTF8.self)
    }

    public static func print(_ value: some Encodable, prettyPrinted: Bool = true) throws {
        Swift.print(try string(value, prettyPrinted: prettyPrinted))
    }
}
