import Foundation
import TestSupport
import Testing

/// `activetaskctl fuse`, driven as a real subprocess on raw motion files it has to re-process:
/// a device lying still, tilted 30° about X, with a gyro bias and the Earth's field.
@Suite struct FuseCommandTests {
    static let rate = 100.0
    static let duration = 4.0
    static let start = 500.0
    static let tilt = 30 * Double.pi / 180
    /// The accelerometer of the tilted device (CoreMotion sign: (0, 0, −1) face up).
    static let accelerometer = [0, -sin(tilt), -cos(tilt)]
    static let gyroBias = [0.01, -0.005, 0.008]
    /// North-West-Up field (20, 0, −45) µT in the device frame.
    static let field = [20, -45 * sin(tilt), -45 * cos(tilt)]

    /// Raw samples as (sensorType, uptime, x, y, z), in time order, with a step marker at 2 s.
    static func rows(magnetometer: Bool) -> [(String, Double, [Double])] {
        var rows: [(String, Double, [Double])] = []
        for index in 0..<Int(duration * rate) {
            let uptime = start + Double(index) / rate
            rows.append(("accelerometer", uptime, accelerometer))
            rows.append(("gyro", uptime, gyroBias))
            if magnetometer { rows.append(("magnetometer", uptime, field)) }
        }
        return rows
    }

    static func json(magnetometer: Bool) -> String {
        var objects = [#"{"uptime":\#(start),"timestamp":0,"stepPath":"task/a","timestampDate":"2026-11-22T10:00:00.000+00:00"}"#]
        for (type, uptime, v) in rows(magnetometer: magnetometer) {
            if uptime == start + 2, type == "accelerometer" {
                objects.append(#"{"uptime":\#(uptime),"timestamp":2,"stepPath":"task/b","timestampDate":"2026-11-22T10:00:02.000+00:00"}"#)
            }
            objects.append(#"{"uptime":\#(uptime),"timestamp":\#(uptime - start),"stepPath":"task/a","sensorType":"\#(type)","x":\#(v[0]),"y":\#(v[1]),"z":\#(v[2])}"#)
        }
        return "[" + objects.joined(separator: ",\n") + "]"
    }

    static func csv(magnetometer: Bool) -> String {
        var text = "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w\n"
        for (type, uptime, v) in rows(magnetometer: magnetometer) {
            text += "\(uptime),\(uptime - start),\"task/a,1\",,\(type),,,,\(v[0]),\(v[1]),\(v[2]),\n"
        }
        return text
    }

    static func records(_ path: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]] ?? []
    }

    @Test func jsonInZUpOutWithMarkers() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let input = try scratch.write("raw.json", Self.json(magnetometer: false))
        let output = scratch.url.appendingPathComponent("fused.json").path
        let result = try await CommandRunner.run(["fuse", input, "--output", output])
        #expect(result == .init(status: 0, standardOutput: "", standardError: ""))
        let records = try Self.records(output)
        func of(_ type: String) -> [[String: Any]] { records.filter { $0["sensorType"] as? String == type } }
        let count = Int(Self.duration * Self.rate)
        for type in ["attitude", "gravity", "userAcceleration", "rotationRate"] {
            #expect(of(type).count == count, "\(type)")
        }
        #expect(of("magneticField").isEmpty && of("accelerometer").isEmpty)
        let markers = records.filter { $0["timestampDate"] != nil }
        #expect(markers.map { $0["stepPath"] as? String } == ["task/a", "task/b"])
        #expect(of("gravity").first?["stepPath"] as? String == "task/a")
        #expect(of("gravity").last?["stepPath"] as? String == "task/b")
        #expect(of("attitude").last?["referenceCoordinate"] as? String == "Z-Up")
        let gravity = try #require(of("gravity").last)
        let error = zip(["x", "y", "z"], Self.accelerometer).map { abs((gravity[$0.0] as? Double ?? 9) - $0.1) }
        #expect(error.max()! <= 0.005, "\(gravity)")
        // The bias is learned while still: the rotation rate goes to zero.
        let rate = try #require(of("rotationRate").last)
        let residual = ["x", "y", "z"].map { abs(rate[$0] as? Double ?? 9) }
        #expect(residual.max()! <= 0.002, "\(rate)")
        #expect(abs((gravity["timestamp"] as? Double ?? 0) - (Self.duration - 1 / Self.rate)) < 1e-9)
    }

    /// A raw file some other tool wrote, with no step marker at all: every record is still valid
    /// JSON, with an empty step path.
    @Test func jsonWithoutMarkersStaysValid() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let objects = Self.rows(magnetometer: false).map { type, uptime, v in
            #"{"uptime":\#(uptime),"timestamp":\#(uptime - Self.start),"sensorType":"\#(type)","x":\#(v[0]),"y":\#(v[1]),"z":\#(v[2])}"#
        }
        let input = try scratch.write("raw.json", "[" + objects.joined(separator: ",\n") + "]")
        let output = scratch.url.appendingPathComponent("fused.json").path
        let result = try await CommandRunner.run(["fuse", input, "--output", output])
        #expect(result == .init(status: 0, standardOutput: "", standardError: ""))
        let records = try Self.records(output)
        #expect(records.count == 4 * Int(Self.duration * Self.rate))
        #expect(records.allSatisfy { $0["stepPath"] as? String == "" })
    }

    @Test func csvInNorthWestUpOutWithHeading() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let input = try scratch.write("raw.csv", Self.csv(magnetometer: true))
        let output = scratch.url.appendingPathComponent("fused.csv").path
        let result = try await CommandRunner.run(
            ["fuse", input, "--output", output, "--types", "attitude,magneticField,gyro", "--reference", "north-west-up"])
        #expect(result == .init(status: 0, standardOutput: "", standardError: ""))
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w")
        let attitude = lines.filter { $0.contains(",attitude,") }
        #expect(attitude.count == Int(Self.duration * Self.rate))
        #expect(lines.filter { $0.contains(",gyro,") }.count == attitude.count)
        #expect(lines.filter { $0.contains(",magneticField,") }.count == attitude.count)
        // The top edge (+Y) of a device lying with X to the north points west: heading 270°.
        let last = try #require(attitude.last?.split(separator: ",", omittingEmptySubsequences: false))
        #expect(last[6] == "North-West-Up")
        let heading = try #require(Double(last[7]))
        #expect(abs(heading - 270) <= 1, "\(last)")
    }

    @Test func explainsBadInput() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.url.appendingPathComponent("fused.json").path
        let missing = scratch.url.appendingPathComponent("missing.json").path
        let result = try await CommandRunner.run(["fuse", missing, "--output", output])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("activetaskctl fuse: cannot read \(missing)"))

        let onlyAccelerometer = try scratch.write(
            "accelerometer.json", #"[{"uptime":1,"timestamp":0,"stepPath":"a","sensorType":"accelerometer","x":0,"y":0,"z":-1}]"#)
        let noGyro = try await CommandRunner.run(["fuse", onlyAccelerometer, "--output", output])
        #expect(noGyro == .init(status: 1, standardOutput: "", standardError: """
            activetaskctl fuse: \(onlyAccelerometer) has no accelerometer and gyro records to fuse; record both (activetaskctl record --types accelerometer,gyro[,magnetometer]).

            """))

        let noMagnetometer = try scratch.write("raw.json", Self.json(magnetometer: false))
        let north = try await CommandRunner.run(["fuse", noMagnetometer, "--output", output, "--reference", "north-west-up"])
        #expect(north.status == 1)
        #expect(north.standardError.contains("has no magnetometer records"))

        let badReference = try await CommandRunner.run(["fuse", noMagnetometer, "--output", output, "--reference", "up"])
        #expect(badReference.status != 0)
        #expect(badReference.standardError.contains("--reference \"up\" is neither z-up nor north-west-up."))

        let badRow = try scratch.write("bad.csv", "uptime,sensorType,x,y,z\n1,gyro,0,0\n")
        let row = try await CommandRunner.run(["fuse", badRow, "--output", output])
        #expect(row.standardError == "activetaskctl fuse: \(badRow): line 2: a gyro record needs numeric x, y and z.\n")
    }
}
