// fuzz-scan: buffer scans of random layouts through the motion scan decoder and
// ScanBatchConverter, checked against a byte-by-byte reference decoder (docs/fuzzing.md).
//
// Input: a header byte (bits 0-1 sensor count, bit 2 timestamp channel, bit 3 text mode), then
// either one line of scan types in the kernel's notation (`le:s16/16>>0 be:s12/16>>4`) and one
// line of mount matrix, or three bytes per channel packing a scan type; the rest is scan data.
import FuzzSupport
import IIO
import Motion

/// Most scans converted per input: bounds the run time of one input.
let maximumScans = 4096

/// The frequencies and scales a device may report (Hz; SI units per count).
let frequencies: [Double] = [1, 12.5, 100, 400, 1600, 6664]
let scales: [Double] = [1, 0.000598, 0.00875, 9.80665e-4, 1e-9, 1e6]

/// A scan type packed in three bytes: byte order, sign, storage, repeat, then bits and shift
/// within the storage, so every triple is a type the kernel could write.
func packedScanType(_ input: inout FuzzInput) -> ScanType {
    let flags = input.byte()
    let storage = 8 << Int((flags >> 2) & 3)
    let bits = 1 + Int(input.byte()) % storage
    let shift = Int(input.byte()) % (storage - bits + 1)
    return ScanType(
        isBigEndian: flags & 1 != 0, isSigned: flags & 2 != 0, bits: bits, storageBits: storage,
        shift: shift, repeat: flags & 16 != 0 ? 2 : 1)
}

/// The value decoded one byte at a time with no loads wider than a byte: the oracle.
func referenceRawValue(_ bytes: UnsafeRawBufferPointer, at offset: Int, type: ScanType, element: Int) -> Int64 {
    let count = type.storageBits / 8
    let start = offset + element * count
    var word: UInt64 = 0
    for index in 0..<count {
        let byte = UInt64(bytes[start + index])
        word |= byte << UInt64(8 * (type.isBigEndian ? count - 1 - index : index))
    }
    word >>= UInt64(type.shift)
    guard type.bits < 64 else { return Int64(bitPattern: word) }
    word &= (1 << UInt64(type.bits)) - 1
    if type.isSigned, word >> UInt64(type.bits - 1) & 1 == 1 {
        word |= ~((1 << UInt64(type.bits)) - 1)
    }
    return Int64(bitPattern: word)
}

FuzzDriver.main(name: "fuzz-scan", usage: "scan layout header, then scan bytes") { input in
    var input = input
    let header = input.byte()
    let sensorCount = 1 + Int(header & 3) % 3
    let channelCount = sensorCount * 3 + (header & 4 != 0 ? 1 : 0)
    var types: [ScanType] = []
    var matrix = MountMatrix.identity
    if header & 8 != 0 {
        let line = String(decoding: input.slice(upTo: UInt8(ascii: "\n")), as: UTF8.self)
        let parsed = line.split(separator: " ").compactMap { ScanType(parsing: String($0)) }
        let matrixLine = String(decoding: input.slice(upTo: UInt8(ascii: "\n")), as: UTF8.self)
        if let written = MountMatrix(parsing: matrixLine) {
            if written.rows.joined().allSatisfy(\.isFinite) {
                precondition(MountMatrix(parsing: written.description) == written, "A mount matrix does not read back.")
            }
            matrix = written
        }
        guard !parsed.isEmpty else { return }
        types = (0..<channelCount).map { parsed[$0 % parsed.count] }
    } else {
        types = (0..<channelCount).map { _ in packedScanType(&input) }
    }
    for type in types {
        precondition(ScanType(parsing: type.description) == type, "Scan type \(type) does not read back.")
    }

    // The kernel's layout: each channel aligned to its storage size, the scan to the largest.
    var offsets: [Int] = []
    var size = 0
    for type in types {
        size = (size + type.storageBytes - 1) / type.storageBytes * type.storageBytes
        offsets.append(size)
        size += type.totalBytes
    }
    let largest = types.map(\.storageBytes).max() ?? 1
    let step = (size + largest - 1) / largest * largest

    let scale = scales[input.choice(scales.count)]
    let frequency = frequencies[input.choice(frequencies.count)]
    let readTime = Double(input.byte()) * 10
    let sensors = Array(SensorKind.allCases.prefix(sensorCount))
    let conversions = sensors.enumerated().map { index, sensor in
        SensorConversion(
            sensor: sensor,
            axes: (0..<3).map { AxisCalibration(scanOffset: offsets[index * 3 + $0], type: types[index * 3 + $0], scale: scale) },
            mountMatrix: matrix)
    }
    let timestamp = channelCount > sensorCount * 3 ? (offset: offsets[channelCount - 1], type: types[channelCount - 1]) : nil
    var converter = ScanBatchConverter(conversions: conversions, timestamp: timestamp, clock: .boottime, frequency: frequency)

    let data = Array(input.rest())
    let scans = min(data.count / step, maximumScans)
    guard scans > 0 else { return }
    var samples: [MotionSample] = []
    data.withUnsafeBytes { raw in
        for scan in 0..<scans {
            for (channel, type) in types.enumerated() {
                for element in 0..<type.repeat {
                    let offset = scan * step + offsets[channel]
                    let decoded = ScanDecoding.rawValue(at: raw.baseAddress! + offset, type: type, element: element)
                    precondition(
                        decoded == referenceRawValue(raw, at: offset, type: type, element: element),
                        "\(type) decodes differently from the reference.")
                }
            }
        }
        // Two refills, so the derived times of the second continue the first.
        let first = scans / 2
        converter.convert(start: raw.baseAddress!, scans: first, step: step, readTime: readTime, into: &samples)
        converter.convert(
            start: raw.baseAddress! + first * step, scans: scans - first, step: step, readTime: readTime + 1, into: &samples)
    }
    precondition(samples.count == scans * sensorCount, "Samples went missing: \(samples.count) for \(scans) scans.")
    if matrix == .identity {
        precondition(samples.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, "A sample is not finite.")
    }
    if timestamp == nil {
        let uptimes = stride(from: 0, to: samples.count, by: sensorCount).map { samples[$0].uptime }
        precondition(zip(uptimes, uptimes.dropFirst()).allSatisfy { $0 < $1 }, "Derived times are not increasing.")
    }
}
