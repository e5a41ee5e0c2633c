import IIO
import Testing

@testable import Motion

@Suite("Conversion to CoreMotion units")
struct ConversionTests {
    @Test(
        "(raw + offset) × scale",
        arguments: [
            (100 as Int64, 0.0, 0.0023942, 0.23942),
            (-2048, -2.0, 0.000305432, -0.6261356),
            (33568, -32768.0, 0.00025, 0.2),
            (0, 5.0, 0.5, 2.5),
        ])
    func calibration(raw: Int64, offset: Double, scale: Double, expected: Double) {
        let axis = AxisCalibration(scanOffset: 0, type: ScanType(parsing: "le:s16/16>>0")!, scale: scale, offset: offset)
        #expect(abs(axis.value(raw: raw) - expected) < 1e-6)
    }

    @Test(
        "Units and signs: accelerometer m/s² → g with the sign flipped, gyroscope rad/s, magnetometer gauss → µT",
        arguments: [
            (SensorKind.accelerometer, 9.80665, -1.0),
            (.accelerometer, -4.903325, 0.5),
            (.gyroscope, 0.25, 0.25),
            (.gyroscope, -3.5, -3.5),
            (.magnetometer, 0.45, 45),
            (.magnetometer, -0.2, -20),
        ])
    func units(sensor: SensorKind, value: Double, expected: Double) {
        #expect(abs(CoreMotionUnits.convert(value, sensor: sensor) - expected) < 1e-12)
    }

    @Test(
        "Mount matrices parse and apply as rows (v' = M·v)",
        arguments: [
            ("1, 0, 0; 0, 1, 0; 0, 0, 1", (1.0, 2.0, 3.0), (1.0, 2.0, 3.0)),
            ("0, 1, 0; -1, 0, 0; 0, 0, 1", (1.0, 2.0, 3.0), (2.0, -1.0, 3.0)),
            ("-1, 0, 0; 0, -1, 0; 0, 0, -1", (1.0, 2.0, 3.0), (-1.0, -2.0, -3.0)),
            ("0.5,0,0;0,1,0;0,0,2", (2.0, 2.0, 2.0), (1.0, 2.0, 4.0)),
        ])
    func mountMatrix(text: String, input: (Double, Double, Double), expected: (Double, Double, Double)) throws {
        let matrix = try #require(MountMatrix(parsing: text))
        let result = matrix.apply(input.0, input.1, input.2)
        #expect(result.x == expected.0 && result.y == expected.1 && result.z == expected.2)
    }

    @Test("Malformed mount matrices are rejected", arguments: ["", "1, 0; 0, 1", "1, 0, 0; 0, 1, 0", "a, b, c; 0, 1, 0; 0, 0, 1",
        "nan, 0, 0; 0, 1, 0; 0, 0, 1", "1, 0, 0; 0, inf, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, -infinity"])
    func badMountMatrix(text: String) {
        #expect(MountMatrix(parsing: text) == nil)
    }

    @Test("A still face-up device reads z = −1 g after the whole conversion")
    func faceUp() {
        // 1 g up on z in IIO: raw 4096 at 0.0023942 m/s² per count is about 9.8066 m/s².
        let conversion = SensorConversion(
            sensor: .accelerometer,
            axes: (0..<3).map { AxisCalibration(scanOffset: $0 * 2, type: ScanType(parsing: "le:s16/16>>0")!, scale: 0.0023942) })
        let scan: [UInt8] = [0, 0, 0, 0, 0x00, 0x10]
        let vector = scan.withUnsafeBytes { conversion.convert(scan: $0.baseAddress!) }
        #expect(vector.x == 0 && vector.y == 0)
        #expect(abs(vector.z - (-4096 * 0.0023942 / 9.80665)) < 1e-15)
        #expect(abs(vector.z + 1) < 0.001)
    }

    @Test(
        "The nearest offered sampling frequency is chosen",
        arguments: [
            (100.0, [12.5, 26, 52, 104, 208], 104.0),
            (50, [12.5, 26, 52, 104, 208], 52),
            (1000, [12.5, 26, 52, 104, 208], 208),
            (1, [12.5, 26, 52, 104, 208], 12.5),
            (39, [26, 52], 52),  // a tie goes to the higher rate
            (100, [], 100),
        ])
    func nearestFrequency(requested: Double, available: [Double], expected: Double) {
        #expect(MotionDiscovery.nearestFrequency(to: requested, available: available) == expected)
    }

    @Test("sampling_frequency_available lists and ranges parse")
    func frequencyLists() {
        #expect(MotionDiscovery.parseFrequencies("12.5 26 52 104\n") == [12.5, 26, 52, 104])
        #expect(MotionDiscovery.parseFrequencies("[1 1 100]") == [1, 1, 100])
        #expect(MotionDiscovery.parseFrequencies(nil) == [])
    }

    @Test(
        "Channel ids map to sensors and axes",
        arguments: [
            ("accel_x", SensorKind.accelerometer, 0), ("anglvel_y", .gyroscope, 1), ("magn_z", .magnetometer, 2),
        ])
    func channelIDs(id: String, sensor: SensorKind, axis: Int) throws {
        let parsed = try #require(SensorKind.parse(channelID: id))
        #expect(parsed.sensor == sensor && parsed.axis == axis)
    }

    @Test("Channels that are not motion axes are ignored", arguments: ["timestamp", "temp", "accel_w", "accel_x_raw", "illuminance"])
    func otherChannels(id: String) {
        #expect(SensorKind.parse(channelID: id) == nil)
    }

    @Test("Device timestamps on boottime map unchanged; other clocks by the measured offset")
    func clockMapping() {
        #expect(DeviceClockMapping.boottime.uptime(nanoseconds: 1_234_567_890_123) == 1234.567890123)
        let mapping = DeviceClockMapping(clock: .realtime, offset: -1_700_000_000)
        #expect(abs(mapping.uptime(nanoseconds: 1_700_000_123_500_000_000) - 123.5) < 1e-6)
        let measured = DeviceClockMapping.measure(clock: .monotonic)
        // CLOCK_BOOTTIME ≥ CLOCK_MONOTONIC (they differ by time spent suspended).
        #expect(measured.offset > -0.01)
        #expect(TimestampClock(attribute: "boottime\n") == .boottime)
        #expect(TimestampClock(attribute: "monotonic_raw") == .monotonicRaw)
        #expect(TimestampClock(attribute: "sundial") == nil)
    }

    @Test(
        "Gaps longer than 1.9 periods are counted with the samples missing",
        arguments: [
            ([0.0, 0.01, 0.02, 0.03], 0, 0),
            ([0.0, 0.01, 0.05, 0.06], 1, 3),
            ([0.0, 0.018, 0.036], 0, 0),
            ([0.0, 0.02, 0.04], 2, 2),
            ([0.0, 0.01, 0.11, 0.12, 0.22], 2, 18),
        ])
    func gaps(times: [Double], gapCount: Int, missing: Int) {
        var detector = GapDetector(frequency: 100)
        for time in times { _ = detector.next(time) }
        #expect(detector.gapCount == gapCount)
        #expect(detector.missingSamples == missing)
    }
}
