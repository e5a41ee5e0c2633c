import Foundation

/// An IIO device for umockdev: its sysfs attributes, scan elements and the byte stream its
/// device node delivers. Scan layout follows the kernel (TESTING.md): enabled channels in index
/// order, each aligned to its storage size, the scan padded to its largest element. Written
/// from the kernel's rules here, not from the product's decoder.
public struct EmulatedIIODevice: Sendable {
    public struct Channel: Sendable {
        /// `accel_x`, `anglvel_z`, `timestamp`.
        public var id: String
        public var index: Int
        /// The kernel's type text, for example `be:s12/16>>4`.
        public var type: String

        public init(id: String, index: Int, type: String) {
            self.id = id
            self.index = index
            self.type = type
        }
    }

    public var number: Int
    public var name: String
    /// Device-level attributes (`sampling_frequency`, `in_accel_scale`, `in_accel_mount_matrix`).
    public var attributes: [(String, String)]
    public var channels: [Channel]

    public init(number: Int, name: String, attributes: [(String, String)], channels: [Channel]) {
        self.number = number
        self.name = name
        self.attributes = attributes
        self.channels = channels
    }

    public var sysfsPath: String { "/devices/platform/emulated-\(name)/iio:device\(number)" }
    public var nodePath: String { "/dev/iio:device\(number)" }

    /// The umockdev device description.
    public func umockdevRecord() -> String {
        var lines = [
            "P: \(sysfsPath)", "N: iio:device\(number)", "E: DEVNAME=\(nodePath)", "E: SUBSYSTEM=iio",
            "A: name=\(name)\\n",
        ]
        for (key, value) in attributes { lines.append("A: \(key)=\(value)\\n") }
        for channel in channels {
            lines.append("A: scan_elements/in_\(channel.id)_en=0\\n")
            lines.append("A: scan_elements/in_\(channel.id)_index=\(channel.index)\\n")
            lines.append("A: scan_elements/in_\(channel.id)_type=\(channel.type)\\n")
        }
        lines.append("A: buffer/enable=0\\n")
        lines.append("A: buffer/length=128\\n")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The bytes of one scan as the kernel sends it with exactly the channels in `values`
    /// enabled; `values[id]` gives each channel's integer values (one per repeat).
    public func scan(_ values: [String: [Int64]]) -> [UInt8] {
        var bytes: [UInt8] = []
        var largest = 1
        for channel in channels.sorted(by: { $0.index < $1.index }) where values[channel.id] != nil {
            let type = Self.parseType(channel.type)
            let size = type.storage / 8
            largest = max(largest, size)
            while bytes.count % size != 0 { bytes.append(0) }
            let channelValues = values[channel.id]!
            for value in channelValues {
                let mask: UInt64 = type.bits == 64 ? ~0 : (1 << UInt64(type.bits)) - 1
                let word = (UInt64(bitPattern: value) & mask) << UInt64(type.shift)
                var little: [UInt8] = (0..<size).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
                if type.bigEndian { little.reverse() }
                bytes += little
            }
        }
        while bytes.count % largest != 0 { bytes.append(0) }
        return bytes
    }

    /// A small, separate reading of the kernel's type notation for the test side.
    public static func parseType(_ text: String) -> (bigEndian: Bool, bits: Int, storage: Int, shift: Int, repeatCount: Int) {
        let endian = text.hasPrefix("be")
        let afterSign = text.dropFirst(4)  // "le:s"
        let bits = Int(afterSign.prefix { $0.isNumber })!
        let afterSlash = afterSign.drop { $0 != "/" }.dropFirst()
        let storage = Int(afterSlash.prefix { $0.isNumber })!
        var repeatCount = 1
        if let cross = afterSlash.firstIndex(of: "X") {
            repeatCount = Int(afterSlash[afterSlash.index(after: cross)...].prefix { $0.isNumber })!
        }
        let shift = Int(text.components(separatedBy: ">>")[1])!
        return (endian, bits, storage, shift, repeatCount)
    }
}
