import Foundation

/// Writes messages as control-socket lines: compact JSON with sorted keys, then `\n`.
public enum JSONRPCLineWriter {
    /// The bytes of one line.
    public static func line(_ message: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(message))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
