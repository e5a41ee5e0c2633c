/// Cuts a JSON array arriving in chunks into its top-level elements (objects), keeping only
/// the element being read: bounded by the largest element, not the file.
struct JSONArrayElementSplitter {
    private var pending: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false

    init() {
        pending.reserveCapacity(4096)
    }

    /// Feeds the next chunk; calls `element` with each complete top-level object.
    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, element: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for byte in chunk {
            if depth >= 2 { pending.append(byte) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = depth >= 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 2 { pending.append(byte) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 1 {
                    try pending.withUnsafeBufferPointer { try element($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                if depth < 0 { depth = 0 }
            default:
                break
            }
        }
    }
}
