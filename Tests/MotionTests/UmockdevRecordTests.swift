import Foundation
import Testing
import TestSupport

/// activetaskctl sensors / record as a real subprocess under umockdev-run: libiio's `local:`
/// backend reads emulated kernel devices (TESTING.md). Skipped when umockdev-run is missing
/// (scripts/setup.sh installs it).
@Suite("Motion recording from emulated IIO devices", .serialized, .enabled(if: UmockdevTestbed.isAvailable))
struct UmockdevRecordTests {
    static let mountMatrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
    static let matrixRows: [[Double]] = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]
    static let accelScale = 0.0023942
    static let gyroScale = 0.000305432
    static let gyroOffset = -2.0
    static let period104: Int64 = 9_615_385  // ns, 104 Hz

    /// One combined 6-axis IMU: accelerometer le:s16, gyroscope be:s12/16>>4 with an offset,
    /// one mount matrix for both, a timestamp channel on a settable clock.
    static func combinedIMU(timestampClock: String? = "realtime", withTimestamp: Bool = true) -> EmulatedIIODevice {
        var attributes: [(String, String)] = [
            ("sampling_frequency", "52"), ("sampling_frequency_available", "12.5 26 52 104 208"),
            ("in_accel_scale", "\(accelScale)"), ("in_accel_mount_matrix", mountMatrix),
            ("in_anglvel_scale", "\(gyroScale)"), ("in_anglvel_offset", "-2"), ("in_anglvel_mount_matrix", mountMatrix),
        ]
        if let timestampClock { attributes.append(("current_timestamp_clock", timestampClock)) }
        var channels: [EmulatedIIODevice.Channel] = [
            .init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
            .init(id: "accel_z", index: 2, type: "le:s16/16>>0"), .init(id: "anglvel_x", index: 3, type: "be:s12/16>>4"),
            .init(id: "anglvel_y", index: 4, type: "be:s12/16>>4"), .init(id: "anglvel_z", index: 5, type: "be:s12/16>>4"),
        ]
        if withTimestamp { channels.append(.init(id: "timestamp", index: 6, type: "le:s64/64>>0")) }
        return EmulatedIIODevice(number: 0, name: "imu6dof", attributes: attributes, channels: channels)
    }

    static func accelRaw(_ i: Int) -> [Int64] { [Int64(100 + 7 * i), Int64(-200 + i), Int64(4096 - 3 * i)] }
    static func gyroRaw(_ i: Int) -> [Int64] { [Int64(-2048 + i), 2047, Int64(i % 2 == 0 ? -1 : 1)] }

    /// Scans of the combined IMU with the recorded sensors enabled (the kernel sends only
    /// enabled channels) plus the timestamp when the device has one.
    static func combinedScans(
        count: Int, start: Int64, device: EmulatedIIODevice, accel: Bool = true, gyro: Bool = true, gapAfter: Int? = nil
    ) -> [[UInt8]] {
        (0..<count).map { i in
            var time = start + Int64(i) * period104
            if let gapAfter, i > gapAfter { time += 10 * period104 }
            var values: [String: [Int64]] = [:]
            if accel {
                let a = accelRaw(i)
                values["accel_x"] = [a[0]]
                values["accel_y"] = [a[1]]
                values["accel_z"] = [a[2]]
            }
            if gyro {
                let g = gyroRaw(i)
                values["anglvel_x"] = [g[0]]
                values["anglvel_y"] = [g[1]]
                values["anglvel_z"] = [g[2]]
            }
            if device.channels.contains(where: { $0.id == "timestamp" }) { values["timestamp"] = [time] }
            return device.scan(values)
        }
    }

    private func samples(_ records: [[String: Any]], _ type: String) -> [[String: Any]] {
        records.filter { $0["sensorType"] as? String == type }
    }

    @Test("sensors --json lists the combined IMU's channels, scales, mount matrix, frequencies and clock")
    func sensorsJSON() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        testbed.add(device, scans: [])
        let output = try await testbed.run("\"$CTL\" sensors --iio-uri local: --json")
        #expect(output.status == 0, "\(output.stderr)")
        let inventory = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let devices = try #require(inventory["devices"] as? [[String: Any]])
        #expect(devices.count == 1)
        let first = try #require(devices.first)
        #expect(first["id"] as? String == "iio:device0")
        #expect(first["name"] as? String == "imu6dof")
        #expect(first["timestampClock"] as? String == "realtime")
        #expect(first["hasTimestampChannel"] as? Bool == true)
        #expect(first["availableSamplingFrequencies"] as? [Double] == [12.5, 26, 52, 104, 208])
        let sensors = try #require(first["sensors"] as? [[String: Any]])
        #expect(sensors.map { $0["sensor"] as? String } == ["accelerometer", "gyroscope"])
        #expect(sensors.allSatisfy { $0["mountMatrix"] as? String == Self.mountMatrix })
        let gyroChannels = try #require(sensors[1]["channels"] as? [[String: Any]])
        #expect(gyroChannels.map { $0["scanType"] as? String } == ["be:s12/16>>4", "be:s12/16>>4", "be:s12/16>>4"])
        #expect(gyroChannels.allSatisfy { $0["scale"] as? Double == Self.gyroScale && $0["offset"] as? Double == -2 })
    }

    @Test("record on a combined IMU: exact converted values, boottime uptimes, nearest frequency written")
    func combinedRecord() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        let start: Int64 = 7_000_123_456_789
        testbed.add(device, scans: Self.combinedScans(count: 30, start: start, device: device), scansPerChunk: 3)
        let file = testbed.path("imu.json")
        let sys = "$UMOCKDEV_DIR/sys\(device.sysfsPath)"
        let output = try await testbed.run(
            "\"$CTL\" record --iio-uri local: --types accelerometer,gyro --frequency 100 --duration 1 --output \(file) && cp \(sys)/sampling_frequency \(sys)/current_timestamp_clock \(testbed.path(""))")
        #expect(output.status == 0, "\(output.stderr)")
        // What the recorder wrote to sysfs: 104 Hz (nearest to 100) and the boottime clock.
        let written = { (name: String) in (try? String(contentsOfFile: testbed.path(name), encoding: .utf8))?.trimmingCharacters(in: CharacterSet(charactersIn: "\n\0")) }
        #expect(written("sampling_frequency") == "104")
        #expect(written("current_timestamp_clock") == "boottime")

        let records = try UmockdevTestbed.records(at: file)
        let marker = try #require(records.first)
        #expect(marker["stepPath"] as? String == "record")
        #expect(marker["timestamp"] as? Double == 0)
        #expect(marker["timestampDate"] is String)
        let result = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout))
        let startUptime = try #require(result["startUptime"] as? Double)
        #expect(result["contentType"] as? String == "application/json")
        #expect((result["notes"] as? [String])?.contains { $0.contains("104 Hz") } == true)

        let accel = samples(records, "accelerometer")
        let gyro = samples(records, "gyro")
        #expect(accel.count == 30)
        #expect(gyro.count == 30)
        for (i, record) in accel.enumerated() {
            let expected = ExpectedMotion.vector(raw: Self.accelRaw(i), scale: Self.accelScale, matrix: Self.matrixRows, sensor: "accelerometer")
            let values = ["x", "y", "z"].map { record[$0] as? Double ?? .nan }
            #expect(zip(values, expected).allSatisfy { ExpectedMotion.close($0, $1) }, "accel scan \(i): \(values) != \(expected)")
            let uptime = Double(start + Int64(i) * Self.period104) / 1e9
            #expect(abs((record["uptime"] as? Double ?? 0) - uptime) < 1e-6)
            #expect(abs((record["timestamp"] as? Double ?? 0) - (uptime - startUptime)) < 1e-6)
            #expect(record["stepPath"] as? String == "record")
        }
        for (i, record) in gyro.enumerated() {
            let expected = ExpectedMotion.vector(raw: Self.gyroRaw(i), scale: Self.gyroScale, offset: Self.gyroOffset, matrix: Self.matrixRows, sensor: "gyro")
            let values = ["x", "y", "z"].map { record[$0] as? Double ?? .nan }
            #expect(zip(values, expected).allSatisfy { ExpectedMotion.close($0, $1) }, "gyro scan \(i): \(values) != \(expected)")
        }
        // Face-up still in IIO (+1 g on z) must read z ≈ −1 in CoreMotion's convention: raw
        // 4096 × 0.0023942 m/s² ≈ +9.807 m/s² on z.
        let firstZ = try #require(accel.first?["z"] as? Double)
        #expect(abs(firstZ + 1) < 0.01)
    }

    @Test("record with CSV output writes SageResearch's columns")
    func combinedRecordCSV() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        testbed.add(device, scans: Self.combinedScans(count: 9, start: 1_000_000_000_000, device: device, accel: false), scansPerChunk: 3)
        let file = testbed.path("imu.csv")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types gyro --frequency 104 --duration 0.6 --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout))
        #expect(result["contentType"] as? String == "text/csv")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w")
        #expect(lines.count == 1 + 1 + 9)
        let row = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(row.count == 12)
        #expect(row[4] == "gyro")
        let expected = ExpectedMotion.vector(raw: Self.gyroRaw(0), scale: Self.gyroScale, offset: Self.gyroOffset, matrix: Self.matrixRows, sensor: "gyro")
        #expect(ExpectedMotion.close(Double(row[8]) ?? .nan, expected[0]))
        #expect(ExpectedMotion.close(Double(row[10]) ?? .nan, expected[2]))
    }

    @Test("record from separate accelerometer, gyroscope and magnetometer devices")
    func separateDevices() async throws {
        var testbed = UmockdevTestbed()
        let accel = EmulatedIIODevice(
            number: 0, name: "accel3d",
            attributes: [("sampling_frequency", "100"), ("in_accel_scale", "0.000598"), ("current_timestamp_clock", "boottime")],
            channels: [
                .init(id: "accel_x", index: 0, type: "le:s16/16>>0"), .init(id: "accel_y", index: 1, type: "le:s16/16>>0"),
                .init(id: "accel_z", index: 2, type: "le:s16/16>>0"), .init(id: "timestamp", index: 3, type: "le:s64/64>>0"),
            ])
        let gyro = EmulatedIIODevice(
            number: 1, name: "gyro3d",
            attributes: [
                ("sampling_frequency", "100"), ("in_anglvel_scale", "0.0000174533"), ("in_anglvel_offset", "5"),
                ("current_timestamp_clock", "realtime"),
            ],
            channels: [
                .init(id: "anglvel_x", index: 0, type: "le:s32/32>>0"), .init(id: "anglvel_y", index: 1, type: "le:s32/32>>0"),
                .init(id: "anglvel_z", index: 2, type: "le:s32/32>>0"), .init(id: "timestamp", index: 3, type: "le:s64/64>>0"),
            ])
        let magn = EmulatedIIODevice(
            number: 2, name: "magn3d",
            attributes: [("sampling_frequency", "100"), ("in_magn_scale", "0.00025"), ("in_magn_offset", "-32768"), ("current_timestamp_clock", "boottime")],
            channels: [
                .init(id: "magn_x", index: 0, type: "le:u16/16>>0"), .init(id: "magn_y", index: 1, type: "le:u16/16>>0"),
                .init(id: "magn_z", index: 2, type: "le:u16/16>>0"), .init(id: "timestamp", index: 3, type: "le:s64/64>>0"),
            ])
        let period: Int64 = 10_000_000
        func accelRaw(_ i: Int) -> [Int64] { [Int64(i), -16384, 32767 - Int64(i)] }
        func gyroRaw(_ i: Int) -> [Int64] { [-1_000_000 + Int64(i), 70_000, Int64(-i)] }
        func magnRaw(_ i: Int) -> [Int64] { [32768 + 801 + Int64(i), 32768 - 100 * Int64(i), 65535] }
        testbed.add(
            accel,
            scans: (0..<12).map { i in
                accel.scan(["accel_x": [accelRaw(i)[0]], "accel_y": [accelRaw(i)[1]], "accel_z": [accelRaw(i)[2]], "timestamp": [2_000_000_000_000 + Int64(i) * period]])
            }, scansPerChunk: 2)
        testbed.add(
            gyro,
            scans: (0..<12).map { i in
                gyro.scan(["anglvel_x": [gyroRaw(i)[0]], "anglvel_y": [gyroRaw(i)[1]], "anglvel_z": [gyroRaw(i)[2]], "timestamp": [2_000_000_000_000 + Int64(i) * period + 3_000]])
            }, scansPerChunk: 2)
        testbed.add(
            magn,
            scans: (0..<12).map { i in
                magn.scan(["magn_x": [magnRaw(i)[0]], "magn_y": [magnRaw(i)[1]], "magn_z": [magnRaw(i)[2]], "timestamp": [2_000_000_000_000 + Int64(i) * period + 7_000]])
            }, scansPerChunk: 2)
        let file = testbed.path("separate.json")
        let output = try await testbed.run(
            "\"$CTL\" record --iio-uri local: --types accelerometer,gyro,magnetometer --frequency 100 --duration 1 --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let records = try UmockdevTestbed.records(at: file)
        let checks: [(String, (Int) -> [Int64], Double, Double, Int64)] = [
            ("accelerometer", accelRaw, 0.000598, 0, 0), ("gyro", gyroRaw, 0.0000174533, 5, 3_000), ("magnetometer", magnRaw, 0.00025, -32768, 7_000),
        ]
        for (type, raw, scale, offset, shift) in checks {
            let list = samples(records, type)
            #expect(list.count == 12, "\(type)")
            for (i, record) in list.enumerated() {
                let expected = ExpectedMotion.vector(raw: raw(i), scale: scale, offset: offset, sensor: type)
                let values = ["x", "y", "z"].map { record[$0] as? Double ?? .nan }
                #expect(zip(values, expected).allSatisfy { ExpectedMotion.close($0, $1) }, "\(type) \(i): \(values) != \(expected)")
                let uptime = Double(2_000_000_000_000 + Int64(i) * period + shift) / 1e9
                #expect(abs((record["uptime"] as? Double ?? 0) - uptime) < 1e-6)
            }
        }
    }

    @Test("a device without a clock attribute stamps CLOCK_REALTIME; uptimes are converted to boottime")
    func realtimeConversion() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU(timestampClock: nil)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let realtimeStart = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let offset = (Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9) - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        testbed.add(device, scans: Self.combinedScans(count: 6, start: realtimeStart, device: device, gyro: false), scansPerChunk: 3)
        let file = testbed.path("realtime.json")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer --frequency 104 --duration 0.6 --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout))
        #expect((result["notes"] as? [String])?.contains { $0.contains("CLOCK_REALTIME") } == true)
        let accel = samples(try UmockdevTestbed.records(at: file), "accelerometer")
        #expect(accel.count == 6)
        for (i, record) in accel.enumerated() {
            let expected = Double(realtimeStart + Int64(i) * Self.period104) / 1e9 + offset
            // The offset is measured by the recorder at start; allow a generous 50 ms.
            #expect(abs((record["uptime"] as? Double ?? 0) - expected) < 0.05)
        }
    }

    @Test("without a timestamp channel uptimes are derived from the rate, and the result says so")
    func derivedTimes() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU(timestampClock: nil, withTimestamp: false)
        testbed.add(device, scans: Self.combinedScans(count: 9, start: 0, device: device, gyro: false), scansPerChunk: 3)
        let file = testbed.path("derived.json")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer --frequency 104 --duration 0.6 --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout))
        let startUptime = try #require(result["startUptime"] as? Double)
        #expect((result["notes"] as? [String])?.contains { $0.contains("no timestamp channel") } == true)
        let accel = samples(try UmockdevTestbed.records(at: file), "accelerometer")
        #expect(accel.count == 9)
        let uptimes = accel.compactMap { $0["uptime"] as? Double }
        #expect(zip(uptimes, uptimes.dropFirst()).allSatisfy { $0 < $1 })
        #expect(uptimes.allSatisfy { $0 > startUptime - 1 && $0 < startUptime + 5 })
        // Within one buffer the spacing is the sampling period.
        #expect(abs((uptimes[1] - uptimes[0]) - 1.0 / 104) < 1e-9)
    }

    @Test("a gap in the timestamps (buffer overrun) is reported in the file result")
    func overrunGap() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        testbed.add(device, scans: Self.combinedScans(count: 21, start: 3_000_000_000_000, device: device, gapAfter: 10), scansPerChunk: 3)
        let file = testbed.path("gap.json")
        // Long enough to read all 21 scans; a sanitizer's slowdown stretches it (TestTiming).
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer,gyro --frequency 104 --duration \(TestTiming.tolerance(0.8)) --output \(file)")
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout))
        let notes = (result["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.hasPrefix("accelerometer: 1 gap(s)") && $0.contains("10 sample(s) missing") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("gyroscope: 1 gap(s)") }, "\(notes)")
    }

    @Test("a channel whose scan type libiio sizes as zero is refused with its name, not a SIGFPE inside libiio")
    func zeroSizedScanType() async throws {
        var testbed = UmockdevTestbed()
        let device = EmulatedIIODevice(
            number: 0, name: "zeroaccel", attributes: [("sampling_frequency", "104"), ("in_accel_scale", "0.000598")],
            channels: ["x", "y", "z"].enumerated().map { .init(id: "accel_\($1)", index: $0, type: "le:s16/0>>0") })
        testbed.add(device, scans: [], scansPerChunk: 1)
        let file = testbed.path("zero.json")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer --frequency 104 --duration 1 --output \(file)")
        #expect(output.status == 1, "\(output.stdout)\n\(output.stderr)")
        #expect((output.stdout + output.stderr).contains("accel_x"), "\(output.stdout)\n\(output.stderr)")
    }

    @Test("a device removed mid-run fails the recorder with an error result; the file stays valid")
    func deviceRemoved() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        testbed.add(device, scans: Self.combinedScans(count: 30, start: 4_000_000_000_000, device: device, gyro: false), scansPerChunk: 3)
        let file = testbed.path("removed.json")
        let output = try await testbed.run(
            """
            "$CTL" record --iio-uri local: --types accelerometer --frequency 104 --duration 20 --output \(file) & pid=$!
            # Removed once it records (its file has samples), however slow the start (a sanitizer).
            for i in $(seq 400); do grep -q '"accelerometer"' \(file) 2>/dev/null && break; sleep 0.05; done
            sleep 0.3
            rm -rf "$UMOCKDEV_DIR/sys\(device.sysfsPath)"
            wait $pid
            """)
        #expect(output.status == 1)
        let error = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout), "\(output.stderr)")
        #expect(error["type"] as? String == "error")
        #expect(error["identifier"] as? String == "removed_error")
        #expect((error["errorDescription"] as? String)?.contains("disappeared") == true, "\(error)")
        let records = try UmockdevTestbed.records(at: file)
        #expect(samples(records, "accelerometer").count == 30)
    }

    @Test("a device whose stream ends (umockdev script over) fails as stalled after 5 s of silence")
    func streamEnds() async throws {
        var testbed = UmockdevTestbed()
        let device = Self.combinedIMU()
        testbed.add(device, scans: Self.combinedScans(count: 6, start: 6_000_000_000_000, device: device, gyro: false), scansPerChunk: 3)
        let file = testbed.path("stalled.json")
        let output = try await testbed.run("\"$CTL\" record --iio-uri local: --types accelerometer --frequency 104 --duration 30 --output \(file)")
        #expect(output.status == 1)
        let error = try #require(UmockdevTestbed.lastJSONObject(in: output.stdout), "\(output.stderr)")
        #expect(error["identifier"] as? String == "stalled_error")
        #expect((error["errorDescription"] as? String)?.contains("sent no samples") == true, "\(error)")
        #expect(samples(try UmockdevTestbed.records(at: file), "accelerometer").count == 6)
    }
}
