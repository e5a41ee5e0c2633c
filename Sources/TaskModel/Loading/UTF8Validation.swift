/// Checks that a task file is UTF-8 before it reaches Foundation's JSON decoder: in JSON5 mode
/// that decoder traps (the whole process dies) on some invalid UTF-8 where an object key is
/// expected, and a task arrives over the socket from anyone allowed to connect
/// (docs/task-format.md, "Bad input").
enum UTF8Validation {
    /// The first invalid sequence: where it starts and why it is invalid.
    struct Fault: Equatable {
        var offset: Int
        var line: Int
        var column: Int
        /// The bytes of the invalid sequence (at most four).
        var bytes: [UInt8]
        var problem: String

        /// The sentence `TaskLoader` reports.
        var reason: String {
            let shown = bytes.map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
            return "The file is not valid UTF-8: at byte offset \(offset) (line \(line), column \(column)) the bytes \(shown) \(problem); save the file as UTF-8."
        }
    }

    /// The first invalid UTF-8 sequence in `bytes` (Unicode's well-formed byte sequences,
    /// table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or nil.
    static func firstFault<Bytes: RandomAccessCollection>(in bytes: Bytes) -> Fault? where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            case 0x80...0xBF:
                return fault(in: bytes, at: index, length: 1, "continue a character that was never started")
            default:
                return fault(in: bytes, at: index, length: 1, "cannot appear in UTF-8")
            }
            for position in 1..<length {
                guard index + position < bytes.endIndex else {
                    return fault(in: bytes, at: index, length: position, "start a character the file ends before finishing")
                }
                let byte = bytes[index + position]
                let range = position == 1 ? secondRange : 0x80...0xBF
                guard range.contains(byte) else {
                    return fault(in: bytes, at: index, length: position + 1,
                                 position == 1 && (0x80...0xBF).contains(byte)
                                     ? "are an overlong, surrogate or out-of-range character"
                                     : "start a character that is not finished")
                }
            }
            index += length
        }
        return nil
    }

    private static func fault<Bytes: RandomAccessCollection>(in bytes: Bytes, at offset: Int, length: Int, _ problem: String) -> Fault
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var line = 1
        var column = 1
        for byte in bytes[bytes.startIndex..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        let end = min(offset + length, bytes.endIndex)
        return Fault(offset: offset - bytes.startIndex, line: line, column: column, bytes: Array(bytes[offset..<end]), problem: problem)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
