/// Keeps scans whole across refills whose byte counts are not a multiple of the scan size.
///
/// The kernel's IIO buffers return whole scans, but a non-blocking read of an emulated device
/// (a FIFO, umockdev) may stop inside one: the stitcher keeps the cut scan's bytes and
/// completes it from the next refill, so no scan is lost or read misaligned.
struct ScanStitcher {
    /// Bytes per scan.
    let step: Int
    /// The start of a cut scan (fewer than `step` bytes).
    private var carry: [UInt8] = []

    init(step: Int) {
        self.step = step
        carry.reserveCapacity(step)
    }

    /// Bytes of a cut scan waiting for the rest.
    var pendingBytes: Int { carry.count }

    /// Calls `convert` with each run of whole scans in the `bytes` bytes at `start`, in order:
    /// first the scan completed from the carried bytes (one scan), then the whole scans that
    /// follow; keeps the bytes of a scan cut at the end for the next call.
    @inline(__always)
    mutating func forEachRun(start: UnsafeRawPointer, bytes: Int, _ convert: (_ scans: UnsafeRawPointer, _ count: Int) -> Void) {
        guard step > 0 else { return }
        var offset = 0
        if !carry.isEmpty {
            offset = min(step - carry.count, bytes)
            carry.append(contentsOf: UnsafeRawBufferPointer(start: start, count: offset))
            guard carry.count == step else { return }
            carry.withUnsafeBytes { convert($0.baseAddress!, 1) }
            carry.removeAll(keepingCapacity: true)
        }
        let whole = (bytes - offset) / step
        if whole > 0 { convert(start + offset, whole) }
        let cut = offset + whole * step
        if cut < bytes {
            carry.append(contentsOf: UnsafeRawBufferPointer(start: start + cut, count: bytes - cut))
        }
    }
}
