/// A growable byte buffer for formatting sample records without per-record allocation:
/// its storage is allocated once and reused after every flush.
///
/// Noncopyable, so it owns its memory alone: an append is a capacity check and a store, with
/// none of an `Array`'s uniqueness checks, retains or generic copying on the per-record path
/// (docs/benchmarks.md, "Motion: convert → JSON writer").
public struct SampleByteBuffer: ~Copyable, @unchecked Sendable {
    private var storage: UnsafeMutablePointer<UInt8>
    /// Bytes the storage holds before it must grow.
    public private(set) var capacity: Int
    /// Bytes appended since the last `removeAll()`.
    public private(set) var count: Int = 0

    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// A copy of the bytes appended so far (tests and step paths; not for the per-record path).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Calls `body` with the bytes appended so far.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Forgets the bytes; the storage is kept.
    public mutating func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(toAtLeast: count + extra) }
    }

    /// Growth is rare (the writers flush before the reserved capacity is reached), so it stays
    /// out of line.
    @inline(never)
    private mutating func grow(toAtLeast needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.initialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends up to `maxCount` bytes that `body` writes at the pointer it is given; `body`
    /// returns how many it wrote.
    @inline(__always)
    public mutating func appendUnsafe(maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxCount)
        count &+= body(storage + count)
    }

    @inline(__always) public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count &+= 1
    }

    /// Appends the UTF-8 of a static string (literals: no allocation).
    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends raw bytes.
    @inline(__always)
    public mutating func append(contentsOf raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        UnsafeMutableRawPointer(storage + count).copyMemory(from: source, byteCount: raw.count)
        count &+= raw.count
    }

    /// Appends the UTF-8 of a string as it is (no escaping).
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// Appends pre-encoded bytes.
    @inline(__always)
    public mutating func append(contentsOf other: [UInt8]) {
        other.withUnsafeBytes { append(contentsOf: $0) }
    }

    /// Appends a JSON string literal with the escapes RFC 8259 requires.
    public mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
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
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xF)])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// Appends a signed integer in decimal without allocating.
    public mutating func append(integer value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            append(unsigned: value.magnitude)
        } else {
            append(unsigned: UInt(value))
        }
    }

    /// Appends an unsigned integer in decimal without allocating.
    public mutating func append(unsigned value: UInt) {
        if value < 10 {
            append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var length = 0
        var remaining = value
        while remaining > 0 {
            length += 1
            remaining /= 10
        }
        appendUnsafe(maxCount: length) { out in
            var remaining = value
            for index in stride(from: length - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") &+ UInt8(remaining % 10)
                remaining /= 10
            }
            return length
        }
    }
}
