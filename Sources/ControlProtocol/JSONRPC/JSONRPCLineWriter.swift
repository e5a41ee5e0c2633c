import Foundation
import TaskModel

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

    /// The bytes of one response line: the same text as `line(_:)` gives, written directly
    /// (every request's answer takes this path, docs/daemon.md).
    public static func line(_ response: JSONRPCResponse) throws -> [UInt8] {
        var writer = JSONTextWriter()
        writer.append("{")
        if case .error(let error) = response.outcome {
            writer.member("error")
            writer.append("{")
            writer.member("code")
            try writer.write(.integer(Int64(error.code)))
            if let data = error.data {
                writer.append(",")
                writer.member("data")
                try writer.write(data)
            }
            writer.append(",")
            writer.member("message")
            writer.write(error.message)
            writer.append("},")
        }
        writer.member("id")
        switch response.id {
        case nil: writer.append("null")
        case .number(let number)?: try writer.write(.integer(number))
        case .string(let text)?: writer.write(text)
        }
        writer.append(",")
        writer.member("jsonrpc")
        writer.write(response.jsonrpc)
        if case .result(let result) = response.outcome {
            writer.append(",")
            writer.member("result")
            try writer.write(result)
        }
        writer.append("}\n")
        return writer.bytes
    }
}
