import Testing

@testable import Motion

@Suite("Refill sizes and scans cut between refills")
struct ScanStitcherTests {
    /// Feeds `stream` (scans of `step` bytes, each byte its scan's number) in refills of the
    /// given sizes; returns the scan numbers converted, in order, and the bytes left pending.
    private func stitch(step: Int, scans: Int, refills: [Int]) -> (converted: [UInt8], pending: Int) {
        let stream = (0..<scans).flatMap { [UInt8](repeating: UInt8($0), count: step) }
        var stitcher = ScanStitcher(step: step)
        var converted: [UInt8] = []
        var offset = 0
        for size in refills {
            stream[offset..<offset + size].withUnsafeBytes { raw in
                stitcher.forEachRun(start: raw.baseAddress!, bytes: size) { start, count in
                    for scan in 0..<count {
                        let bytes = UnsafeRawBufferPointer(start: start + scan * step, count: step)
                        // Every byte of a converted scan is from the same scan: none misaligned.
                        #expect(Set(bytes).count == 1, "scan \(bytes[0]) mixes bytes of two scans")
                        converted.append(bytes[0])
                    }
                }
            }
            offset += size
        }
        return (converted, stitcher.pendingBytes)
    }

    @Test(
        "Every scan is converted once, whole and in order, however the refills cut the stream",
        arguments: [
            (24, 10, [240], 0),  // whole scans only
            (24, 10, [48, 96, 96], 0),
            (24, 10, [50, 190], 0),  // a scan cut after 2 of its bytes
            (24, 10, [10, 10, 10, 210], 0),  // a scan completed over three refills
            (24, 10, [23, 1, 216], 0),
            (24, 10, [100, 100, 30], 14),  // the last scan still incomplete
            (6, 7, [1, 1, 1, 1, 1, 1, 1, 35], 0),
        ])
    func stitching(step: Int, scans: Int, refills: [Int], pending: Int) {
        let result = stitch(step: step, scans: scans, refills: refills)
        let complete = (refills.reduce(0, +)) / step
        #expect(result.converted == (0..<complete).map { UInt8($0) })
        #expect(result.pending == pending)
    }

    @Test(
        "Buffers hold 0.1 s of scans for paced reads, else 20 ms; never fewer than 2",
        arguments: [
            (1600.0, true, 160), (1600.0, false, 32), (100.0, true, 10), (100.0, false, 2),
            (1000.0, true, 100), (10.0, true, 2), (10.0, false, 2), (12.5, true, 2), (25.0, true, 3),
        ])
    func refillScans(rate: Double, paced: Bool, scans: Int) {
        #expect(IIOMotionSource.refillScans(rate: rate, pacedReads: paced) == scans)
    }
}
