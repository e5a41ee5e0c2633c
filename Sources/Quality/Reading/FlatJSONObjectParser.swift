import Glibc

/// Parses one flat JSON object (string, number, null and boolean values only, as motion and
/// levels records are) field by field, straight from bytes: no Foundation objects per record.
struct FlatJSONObjectParser {
    /// A field's value.
    enum Value {
        case number(Double)
        case string(UnsafeBufferPointer<UInt8>, escaped: Bool)
        case other
    }

    /// Calls `field` with each key (raw bytes between the quotes) and value of the object in
    /// `bytes`; returns false when the text is not a flat object.
    @discardableResult
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, field: (UnsafeBufferPointer<UInt8>, Value) -> Void) -> Bool {
        var index = 0
        let count = bytes.count
        func skipSpace() { while index < count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 } }
        /// Reads a string starting at the opening quote; returns its content range.
        func readString() -> (UnsafeBufferPointer<UInt8>, Bool)? {
            guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            var escaped = false
            while index < count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") { escaped = true; index += 1 }
                index += 1
            }
            guard index < count else { return nil }
            let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            return (content, escaped)
        }
        skipSpace()
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        while true {
            skipSpace()
            if index < count, bytes[index] == UInt8(ascii: "}") { return true }
            guard let (key, _) = readString() else { return false }
            skipSpace()
            guard index < count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard index < count else { return false }
            if bytes[index] == UInt8(ascii: "\"") {
                guard let (value, escaped) = readString() else { return false }
                field(key, .string(value, escaped: escaped))
            } else {
                let start = index
                while index < count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}") { index += 1 }
                var end = index
                while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
                let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if let number = parseNumber(text) { field(key, .number(number)) } else { field(key, .other) }
            }
            skipSpace()
            guard index < count else { return false }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            return bytes[index] == UInt8(ascii: "}")
        }
    }

    /// A JSON number as a Double (strtod on a small stack copy); nil for null, true, false.
    static func parseNumber(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let first = text.first, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
            text.count < 64
        else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for (offset, byte) in text.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + text.count ? value : nil
        }
    }

    /// A string value as a Swift String, unescaping the JSON escapes that step paths can hold.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String {
        guard escaped else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                index += 2
                switch next {
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "u") where index + 4 <= bytes.count:
                    let hex = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self)
                    index += 4
                    if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) { output += Array(String(Character(scalar)).utf8) }
                default: output.append(next)
                }
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
