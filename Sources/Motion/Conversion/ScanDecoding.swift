public import IIO

/// Decodes channel values from the bytes of a buffer scan, for every scan type the kernel
/// writes (`le:s16/16>>0`, `be:s12/16>>4`, `le:u32/32>>0`, repeats `X2`).
public enum ScanDecoding {
    /// The integer value of repeat `element` of a channel stored at `pointer`: the storage word
    /// read in the scan type's byte order, shifted right by `shift`, masked to `bits` and
    /// sign-extended when signed.
    @inline(__always)
    public static func rawValue(at pointer: UnsafeRawPointer, type: ScanType, element: Int = 0) -> Int64 {
        let base = pointer + element * type.storageBytes
        let word: UInt64
        switch type.storageBits {
        case 8:
            word = UInt64(base.load(as: UInt8.self))
        case 16:
            let value = base.loadUnaligned(as: UInt16.self)
            word = UInt64(type.isBigEndian ? UInt16(bigEndian: value) : UInt16(littleEndian: value))
        case 32:
            let value = base.loadUnaligned(as: UInt32.self)
            word = UInt64(type.isBigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value))
        default:
            let value = base.loadUnaligned(as: UInt64.self)
            word = type.isBigEndian ? UInt64(bigEndian: value) : UInt64(littleEndian: value)
        }
        return extract(word: word, type: type)
    }

    /// Shift, mask and sign-extend a storage word already in host order.
    @inline(__always)
    public static func extract(word: UInt64, type: ScanType) -> Int64 {
        let shifted = word >> UInt64(type.shift)
        if type.bits >= 64 { return Int64(bitPattern: shifted) }
        let mask: UInt64 = (1 << UInt64(type.bits)) &- 1
        let value = shifted & mask
        if type.isSigned && value & (1 << UInt64(type.bits - 1)) != 0 {
            return Int64(bitPattern: value | ~mask)
        }
        return Int64(bitPattern: value)
    }

    /// The values of one channel in `bytes` (a whole scan or just the channel's bytes).
    public static func rawValues(in bytes: [UInt8], offset: Int = 0, type: ScanType) -> [Int64] {
        bytes.withUnsafeBytes { raw in
            (0..<type.repeat).map { rawValue(at: raw.baseAddress! + offset, type: type, element: $0) }
        }
    }
}
