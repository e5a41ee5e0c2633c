/// Finds where JSON text stops being valid, for error messages: Foundation's decoder only says
/// "not valid JSON". Accepts what task files use (standard JSON plus trailing commas) and
/// reports the first offending line and column, or nil when it finds no fault.
public struct JSONSyntaxLocator {
    /// Where the text stops being JSON and why.
    public struct Fault: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var problem: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// The first fault in `bytes`, or nil when the text is JSON (trailing commas allowed).
    public static func firstFault(in bytes: [UInt8]) -> Fault? {
        var locator = JSONSyntaxLocator(bytes: bytes)
        return locator.scanDocument()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func scanDocument() -> Fault? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipSpace()
        if let fault = scanValue() { return fault }
        skipSpace()
        return index < bytes.count ? fault("unexpected text after the end of the JSON value") : nil
    }

    private func fault(_ problem: String) -> Fault {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return Fault(line: line, column: column, problem: problem)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func scanValue() -> Fault? {
        guard index < bytes.count else { return fault("the file ends where a value is expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return scanContainer(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): return scanContainer(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): return scanString()
        case UInt8(ascii: "t"): return scanLiteral("true")
        case UInt8(ascii: "f"): return scanLiteral("false")
        case UInt8(ascii: "n"): return scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
        default: return fault("a value is expected here (a string, number, object, array, true, false or null)")
        }
    }

    private mutating func scanContainer(close: UInt8, isObject: Bool) -> Fault? {
        depth += 1
        defer { depth -= 1 }
        if depth > 512 { return fault("the JSON is nested more than 512 levels deep") }
        index += 1
        skipSpace()
        while true {
            guard index < bytes.count else { return fault("the file ends before the closing \"\(Character(UnicodeScalar(close)))\"") }
            if bytes[index] == close { index += 1; return nil }
            if isObject {
                guard bytes[index] == UInt8(ascii: "\"") else { return fault("a quoted key is expected here") }
                if let fault = scanString() { return fault }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return fault("a \":\" is expected after the key") }
                index += 1
                skipSpace()
            }
            if let fault = scanValue() { return fault }
            skipSpace()
            guard index < bytes.count else { return fault("the file ends before the closing \"\(Character(UnicodeScalar(close)))\"") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
            } else if bytes[index] != close {
                return fault("a \",\" or \"\(Character(UnicodeScalar(close)))\" is expected here")
            }
        }
    }

    private mutating func scanString() -> Fault? {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): index += 1; return nil
            case UInt8(ascii: "\\"): index += 2
            case 0..<0x20: return fault("a control character (such as a line break) inside a string must be escaped")
            default: index += 1
            }
        }
        return fault("the file ends inside a string")
    }

    private mutating func scanLiteral(_ word: String) -> Fault? {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { return fault("a value is expected here (did you mean \(word)?)") }
        index += expected.count
        return nil
    }

    private mutating func scanNumber() -> Fault? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        var sawDigit = false
        while index < bytes.count, digits.contains(bytes[index]) || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[index]) {
            if digits.contains(bytes[index]) { sawDigit = true }
            index += 1
        }
        if !sawDigit { index = start; return fault("a number is expected here") }
        return nil
    }
}

