/// A growable byte buffer for formatting sample records without per-record allocation:
/// its storage is reserved once and reused after every flush.
public struct SampleByteBuffer: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }
    public var isEmpty: Bool { bytes.isEmpty }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inlinable public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends the UTF-8 of a static string (literals: no allocation).
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    public mutating func append(contentsOf raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends the UTF-8 of a string as it is (no escaping).
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends pre-encoded bytes.
    public mutating func append(contentsOf other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// Appends a JSON string literal with the escapes RFC 8259 requires.
    public mutating func appendJSONString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                append("\\u00")
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { digits in
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0xF)])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a signed integer in decimal without allocating.
    public mutating func append(integer value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(unsigned: value.magnitude)
        } else {
            append(unsigned: UInt(value))
        }
    }

    /// Appends an unsigned integer in decimal without allocating.
    public mutating func append(unsigned value: UInt) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        var remaining = value
        var length = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while remaining > 0 {
                scratch[length] = UInt8(ascii: "0") &+ UInt8(remaining % 10)
                remaining /= 10
                length += 1
            }
            for index in stride(from: length - 1, through: 0, by: -1) {
                bytes.append(scratch[index])
            }
        }
    }
}
