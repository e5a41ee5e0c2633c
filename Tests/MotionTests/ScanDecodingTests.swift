import IIO
import Testing

@testable import Motion

@Suite("Scan types and decoding")
struct ScanDecodingTests {
    @Test(
        "The kernel's scan type notation parses",
        arguments: [
            ("le:s16/16>>0", false, true, 16, 16, 0, 1),
            ("be:s12/16>>4", true, true, 12, 16, 4, 1),
            ("le:s32/32>>0", false, true, 32, 32, 0, 1),
            ("le:u16/16>>0", false, false, 16, 16, 0, 1),
            ("be:u24/32>>8", true, false, 24, 32, 8, 1),
            ("le:s16/16X2>>0", false, true, 16, 16, 0, 2),
            ("le:S64/64>>0", false, true, 64, 64, 0, 1),
            ("le:u8/8>>0", false, false, 8, 8, 0, 1),
        ])
    func parse(text: String, bigEndian: Bool, signed: Bool, bits: Int, storage: Int, shift: Int, repeatCount: Int) throws {
        let type = try #require(ScanType(parsing: text))
        #expect(type.isBigEndian == bigEndian)
        #expect(type.isSigned == signed)
        #expect(type.bits == bits)
        #expect(type.storageBits == storage)
        #expect(type.shift == shift)
        #expect(type.repeat == repeatCount)
        #expect(ScanType(parsing: type.description) == type)
    }

    @Test("Malformed scan types are rejected", arguments: ["", "le:s16", "xe:s16/16>>0", "le:s17/16>>0", "le:s16/12>>0", "le:q16/16>>0", "le:s12/16>>8",
        // Found with fuzz-scan (docs/fuzzing.md): these trapped instead of being rejected.
        "le:s8/16>>-2", "le:s1/8>>9223372036854775807", "le:s8/8X9223372036854775807>>0", "le:s8/8X0>>0",
        "le:s8/8X256>>0", "le:s-9223372036854775808/64>>0"])
    func rejects(text: String) {
        #expect(ScanType(parsing: text) == nil)
    }

    /// The check libiio's own parsed formats go through too (LibIIO.format), on the parts directly.
    @Test("Scan types the decoder cannot read are not decodable, whatever their source", arguments: [
        (8, 8, 0, 1, true), (12, 16, 4, 1, true), (64, 64, 0, 255, true),
        (24, 24, 0, 1, false), (16, 12, 0, 1, false), (0, 16, 0, 1, false), (12, 16, 5, 1, false),
        (16, 16, -1, 1, false), (16, 16, 0, 0, false), (16, 16, 0, 256, false), (16, 0, 0, 1, false),
    ])
    func decodable(bits: Int, storage: Int, shift: Int, repeatCount: Int, expected: Bool) {
        let type = ScanType(isBigEndian: false, isSigned: true, bits: bits, storageBits: storage, shift: shift, repeat: repeatCount)
        #expect(type.isDecodable == expected)
    }

    @Test(
        "Raw values decode with byte order, shift, mask and sign extension",
        arguments: [
            // type, bytes, expected values
            ("le:s16/16>>0", [0x01, 0x00] as [UInt8], [1] as [Int64]),
            ("le:s16/16>>0", [0xFF, 0xFF], [-1]),
            ("le:s16/16>>0", [0x00, 0x80], [-32768]),
            ("be:s16/16>>0", [0x80, 0x00], [-32768]),
            ("be:s12/16>>4", [0x7F, 0xF0], [2047]),
            ("be:s12/16>>4", [0x80, 0x00], [-2048]),
            ("be:s12/16>>4", [0xFF, 0xFF], [-1]),  // low 4 bits are not data
            ("le:s12/16>>4", [0x10, 0x00], [1]),
            ("le:u16/16>>0", [0xFF, 0xFF], [65535]),
            ("le:u12/16>>0", [0xFF, 0xFF], [4095]),  // top 4 bits masked off
            ("le:s32/32>>0", [0x00, 0x00, 0x00, 0x80], [-2_147_483_648]),
            ("be:s32/32>>0", [0x00, 0x01, 0x86, 0xA0], [100_000]),
            ("le:u32/32>>0", [0xFF, 0xFF, 0xFF, 0xFF], [4_294_967_295]),
            ("be:s24/32>>8", [0xFF, 0xFF, 0xFE, 0x00], [-2]),
            ("le:s64/64>>0", [0x15, 0xCD, 0x5B, 0x07, 0x00, 0x00, 0x00, 0x00], [123_456_789]),
            ("le:s16/16X2>>0", [0x02, 0x00, 0xFE, 0xFF], [2, -2]),
            ("le:u8/8>>0", [0xC8], [200]),
            ("le:s8/8>>0", [0xC8], [-56]),
        ])
    func decode(type text: String, bytes: [UInt8], expected: [Int64]) throws {
        let type = try #require(ScanType(parsing: text))
        #expect(ScanDecoding.rawValues(in: bytes, type: type) == expected)
    }
}
