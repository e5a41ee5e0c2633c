public import TaskModel

/// Writes `JSONValue`s as compact JSON text with sorted keys, byte for byte as Foundation's
/// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes them, in one pass over
/// one growing buffer: the daemon writes every response line with it (docs/daemon.md, "Control
/// latency"), where a Foundation encoder would be made, run and thrown away per line.
public struct JSONTextWriter: Sendable {
    /// A number JSON cannot carry.
    public struct NonFiniteNumber: Error, Sendable, Hashable {
        public var value: Double
    }

    /// The text written so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value`.
    public mutating func write(_ value: JSONValue) throws(NonFiniteNumber) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let number): append(String(number))
        case .number(let number): try write(number)
        case .string(let text): write(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: Self.precedes).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                member(key)
                try write(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `"key":`.
    public mutating func member(_ key: String) {
        write(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends raw text the caller knows is JSON (punctuation, literals).
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `number` as `JSONEncoder` does: its shortest round-trip digits, no `.0`.
    public mutating func write(_ number: Double) throws(NonFiniteNumber) {
        guard number.isFinite else { throw NonFiniteNumber(value: number) }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// Appends `text` quoted, escaping what JSON requires (slashes are left as they are).
    public mutating func write(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The order of `.sortedKeys`.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}
