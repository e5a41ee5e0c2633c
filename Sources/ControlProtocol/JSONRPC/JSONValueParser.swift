public import TaskModel

/// Parses one JSON text into a `JSONValue` the way `JSONDecoder().decode(JSONValue.self, …)`
/// does, in one pass over the bytes: the control socket reads every request line with it
/// (docs/daemon.md, "Control latency"), where Foundation's decoder would try each kind of value
/// in turn and throw for every miss. Strict RFC 8259: anything else is `nil`, and the caller
/// explains the fault (`JSONSyntaxLocator`). Like Foundation's, it takes a trailing comma.
public struct JSONValueParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Foundation refuses deeper nesting too.
    private static let maximumDepth = 512

    /// The value `bytes` holds, or nil when they are not exactly one JSON value.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = JSONValueParser(bytes: bytes)
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        return parser.index == bytes.count ? value : nil
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() -> JSONValue? {
        skipWhitespace()
        guard let byte = next else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let matches = text.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        guard matches else { return nil }
        index += count
        return value
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if next == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            if next == UInt8(ascii: "}"), !members.isEmpty {
                // A trailing comma, which Foundation's parser accepts.
                index += 1
                return .object(members)
            }
            guard next == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard next == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value() else { return nil }
            members[key] = member
            skipWhitespace()
            switch next {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?: index += 1; return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if next == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if next == UInt8(ascii: "]"), !elements.isEmpty {
                // A trailing comma, which Foundation's parser accepts.
                index += 1
                return .array(elements)
            }
            guard let element = value() else { return nil }
            elements.append(element)
            skipWhitespace()
            switch next {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?: index += 1; return .array(elements)
            default: return nil
            }
        }
    }

    /// A string at `"`: its text, escapes resolved; nil for a control character, a bad escape
    /// or a lone surrogate (the bytes were checked to be UTF-8 before).
    private mutating func string() -> String? {
        index += 1
        let start = index
        // The common case: no escapes, one copy.
        while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        guard let stop = next else { return nil }
        if stop == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var text = Array(bytes[start..<index])
        while let byte = next {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = next else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    text.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (after the `u`), pairing surrogates.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(high) {
            guard next == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number: an integer when it is whole and fits in 64 bits, else a double.
    private mutating func number() -> JSONValue? {
        let start = index
        if next == UInt8(ascii: "-") { index += 1 }
        guard let first = next, Self.isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = next, Self.isDigit(byte) { index += 1 }
        }
        var isInteger = true
        if next == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = next, Self.isDigit(byte) else { return nil }
            while let byte = next, Self.isDigit(byte) { index += 1 }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard let byte = next, Self.isDigit(byte) else { return nil }
            while let byte = next, Self.isDigit(byte) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { return nil }
        // `1.0` and `1e2` decode as integers too (Foundation's Int64 decoding takes whole numbers).
        if let whole = Int64(exactly: number) { return .integer(whole) }
        return .number(number)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
