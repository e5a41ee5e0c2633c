/// Cuts text arriving in chunks into lines (without the line break), keeping only the line
/// being read. A last line without a break (a file cut by a crash) is dropped, as
/// `SampleFileRepair.repairCSV` drops it.
struct LineSplitter {
    private var pending: [UInt8] = []

    /// Feeds the next chunk; calls `line` with each complete line.
    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>, line: (String) throws -> Void) rethrows {
        for byte in chunk {
            if byte == 0x0A {
                if pending.last == 0x0D { pending.removeLast() }
                try line(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
    }
}
