import SampleFiles

/// Cuts a JSON array arriving in chunks into its top-level objects, keeping only the element
/// being read: bounded by the largest element, not the file. The nesting is followed by
/// SampleFiles' `JSONArrayScanner`, the one crash repair uses.
struct JSONArrayElementSplitter {
    private var scanner = JSONArrayScanner()
    private var pending: [UInt8] = []

    init() {
        pending.reserveCapacity(4096)
    }

    /// Feeds the next chunk; calls `element` with each complete top-level object.
    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, element: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for byte in chunk {
            let wasInside = scanner.depth >= 2
            let ended = scanner.consume(byte)
            if wasInside || scanner.depth >= 2 { pending.append(byte) }
            if ended && !pending.isEmpty {
                try pending.withUnsafeBufferPointer { try element($0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
    }
}
