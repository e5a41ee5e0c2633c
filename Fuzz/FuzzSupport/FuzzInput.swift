/// One fuzz input, read front to back: bytes that pick choices (which move, which scan type)
/// and slices handed to the code under test. Reading past the end yields zeros and empty
/// slices, so every input, however short, is a complete run.
public struct FuzzInput {
    /// All the input's bytes.
    public let bytes: [UInt8]
    /// How many bytes have been consumed.
    public private(set) var position = 0

    /// An input holding a copy of `buffer`.
    public init(_ buffer: UnsafeRawBufferPointer) {
        bytes = Array(buffer)
    }

    /// An input holding `bytes`.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True once every byte is consumed.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The bytes not yet consumed.
    public var remaining: ArraySlice<UInt8> { bytes[min(position, bytes.count)...] }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A value in `0..<count` from the next byte (`count` must be 1 to 256).
    public mutating func choice(_ count: Int) -> Int {
        precondition((1...256).contains(count), "A choice is made from one byte.")
        return Int(byte()) % count
    }

    /// The bytes up to (not including) the next `separator`, which is consumed; all the rest
    /// when there is none.
    public mutating func slice(upTo separator: UInt8) -> ArraySlice<UInt8> {
        let rest = remaining
        let end = rest.firstIndex(of: separator) ?? rest.endIndex
        position = min(end + 1, bytes.count + 1)
        return rest[..<end]
    }

    /// Consumes and returns the rest of the input.
    public mutating func rest() -> ArraySlice<UInt8> {
        defer { position = bytes.count }
        return remaining
    }
}
