import Foundation
import Testing

@testable import SampleFiles

@Suite("Allocation-free Double formatting")
struct DoubleFormattingTests {
    private func format(_ value: Double) -> String {
        var buffer = SampleByteBuffer(capacity: 64)
        buffer.append(double: value)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test(
        "Exact texts for typical values",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (0.5, "0.5"), (100, "100"), (0.1, "0.1"),
            (-0.9501953125, "-0.9501953125"), (0.064788818359375, "0.064788818359375"),
            (37246.68689429167, "37246.68689429167"), (1.2498140833340585, "1.2498140833340585"),
            (123456789012345, "123456789012345"), (0.00001, "0.00001"), (0.000001, "1e-06"),
            (1.5e-7, "1.5e-07"), (1e16, "1e+16"), (2.5e20, "2.5e+20"), (9.80665, "9.80665"),
            (-0.99874751151995522, "-0.9987475115199552"), (0.0007506247809569808, "0.0007506247809569808"),
            (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (Double.nan, "null"), (Double.infinity, "null"),
        ])
    func texts(value: Double, expected: String) {
        #expect(format(value) == expected)
    }

    @Test("Random values of sensor magnitudes read back as the same Double")
    func roundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        var exact = 0
        var shortest = 0
        let count = 20_000
        for index in 0..<count {
            let magnitude = [1e-4, 0.01, 1, 9.81, 1000, 1e5, 1e9][index % 7]
            let value = Double.random(in: -magnitude...magnitude, using: &generator)
            let text = format(value)
            let parsed = try #require(Double(text), "\(text)")
            if parsed == value { exact += 1 }
            // Swift's description is the shortest round-trip text (its notation may differ).
            var swiftText = value.description.prefix { $0 != "e" }
            if swiftText.hasSuffix(".0") { swiftText = swiftText.dropLast(2) }
            let swiftDigits = swiftText.filter(\.isNumber).drop { $0 == "0" }.count
            let ourDigits = text.prefix { $0 != "e" }.filter(\.isNumber).drop { $0 == "0" }.count
            if ourDigits <= swiftDigits { shortest += 1 }
            #expect(parsed == value, "\(value) → \(text)")
        }
        #expect(exact == count)
        // Mostly shortest: only doubtful cases keep a 17th digit.
        #expect(shortest > count * 99 / 100, "\(shortest) of \(count) shortest")
    }

    @Test("Formatting reuses the reserved buffer (no growth past its capacity)")
    func noGrowth() {
        var buffer = SampleByteBuffer(capacity: 4096)
        let capacity = buffer.capacity
        for index in 0..<100 { buffer.append(double: Double(index) * 0.123456789) }
        let capacityAfter = buffer.capacity
        #expect(capacityAfter == capacity)
    }

    @Test("The buffer grows past its capacity and keeps every byte")
    func growth() {
        var buffer = SampleByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for index in 0..<200 {
            buffer.append(double: Double(index) + 0.25)
            buffer.append(",")
            expected += Array("\(Double(index) + 0.25),".utf8)
        }
        let capacity = buffer.capacity
        let bytes = buffer.bytes
        #expect(capacity >= expected.count)
        #expect(bytes == expected)
        buffer.removeAll()
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
        buffer.append(integer: -1234567890)
        buffer.append(unsigned: 0)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "-12345678900")
    }
}
