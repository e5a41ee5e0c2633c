import Testing
@testable import Upload

/// The part size of a multipart upload stays within S3's limits (10 000 parts of at most 5 GiB).
@Suite("Multipart part size")
struct MultipartPartSizeTests {
    static let mebibyte: Int64 = 1 << 20
    static let gibibyte: Int64 = 1 << 30

    @Test("The configured size is kept up to 10 000 parts and raised to whole MiB beyond", arguments: [
        // (archive size, configured part size, expected part size; nil: too large for S3)
        (Int64(200) * mebibyte, Int64(8) * mebibyte, Int64(8) * mebibyte),
        (Int64(80_000) * mebibyte, Int64(8) * mebibyte, Int64(8) * mebibyte),
        (Int64(80_000) * mebibyte + 1, Int64(8) * mebibyte, Int64(9) * mebibyte),
        (Int64(100) * gibibyte, Int64(8) * mebibyte, Int64(11) * mebibyte),
        (Int64(100) * gibibyte, Int64(64) * mebibyte, Int64(64) * mebibyte),
        (Int64(10_000) * 5 * gibibyte, Int64(8) * mebibyte, Int64(5) * gibibyte),
        (Int64(10_000) * 5 * gibibyte + 1, Int64(8) * mebibyte, nil),
        (Int64.max, Int64(8) * mebibyte, nil),
        (Int64(1) * gibibyte, Int64.max / 2, Int64.max / 2),
    ] as [(Int64, Int64, Int64?)])
    func partSize(size: Int64, preferred: Int64, expected: Int64?) {
        let chosen = MultipartProgress.partSize(forArchiveOf: size, preferred: preferred)
        #expect(chosen == expected)
        if let chosen {
            let progress = MultipartProgress(key: "k", uploadID: "u", size: size, partSize: chosen, parts: [])
            #expect(Int64(progress.partCount) <= MultipartProgress.maximumPartCount)
        }
    }
}
