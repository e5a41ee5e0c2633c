/// How one channel's value is stored in a buffer scan, as the kernel prints it in
/// `scan_elements/in_<channel>_type`: `le:s16/16>>0`, `be:s12/16>>4`, `le:u32/32>>0`,
/// `le:s16/16X2>>0` (two repeated values).
public struct ScanType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `be` (true) or `le`.
    public var isBigEndian: Bool
    /// `s` (true) or `u`.
    public var isSigned: Bool
    /// Bits of real data.
    public var bits: Int
    /// Bits of storage per value (8, 16, 32 or 64).
    public var storageBits: Int
    /// Right shift applied before masking `bits`.
    public var shift: Int
    /// How many values of this type follow one another (`X2` → 2).
    public var `repeat`: Int

    /// A scan type from its parts (`repeat` 1 unless the kernel prints `X<n>`).
    public init(isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeat: Int = 1) {
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeat = `repeat`
    }

    /// The most repeats the kernel can declare (`repeat` is a `u8` in `struct iio_scan_type`).
    public static let maximumRepeat = 255

    /// Bytes of storage per value.
    public var storageBytes: Int { storageBits / 8 }

    /// Bytes the channel takes in a scan (all repeats).
    public var totalBytes: Int { storageBytes * `repeat` }

    /// The kernel's notation.
    public var description: String {
        let repeatText = `repeat` > 1 ? "X\(`repeat`)" : ""
        return "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatText)>>\(shift)"
    }

    /// Parses the kernel's notation; nil when `text` is not a scan type the kernel writes.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: " \n")
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" || sign == "S" || sign == "U" else { return nil }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/"), let bits = Int(rest[..<slash]) else { return nil }
        rest = rest[rest.index(after: slash)...]
        guard let shiftMark = rest.firstIndex(of: ">"), rest[rest.index(after: shiftMark)...].first == ">",
            let shift = Int(rest[rest.index(shiftMark, offsetBy: 2)...])
        else { return nil }
        let storageText = rest[..<shiftMark]
        let storage: Int
        var repeatCount = 1
        if let cross = storageText.firstIndex(of: "X") {
            guard let value = Int(storageText[..<cross]), let count = Int(storageText[storageText.index(after: cross)...]),
                (1...ScanType.maximumRepeat).contains(count)
            else { return nil }
            storage = value
            repeatCount = count
        } else {
            guard let value = Int(storageText) else { return nil }
            storage = value
        }
        self.init(
            isBigEndian: parts[0] == "be", isSigned: sign == "s" || sign == "S", bits: bits, storageBits: storage,
            shift: shift, repeat: repeatCount)
        guard isDecodable else { return nil }
    }

    /// Whether a scan of this type can be decoded: storage of 8, 16, 32 or 64 bits, `bits` and
    /// `shift` inside it, 1 to 255 repeats. Checked on every type, parsed or reported by libiio,
    /// because the decoder reads `storageBytes` per value and masks `bits` after the shift.
    public var isDecodable: Bool {
        // Compared without adding, so huge or negative numbers cannot overflow.
        [8, 16, 32, 64].contains(storageBits) && (1...storageBits).contains(bits)
            && (0...storageBits - bits).contains(shift) && (1...ScanType.maximumRepeat).contains(`repeat`)
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view = view.dropFirst() }
        while let last = view.last, set.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
