import Foundation
import TestSupport
import Testing

/// `--gyro-delay` of `activetaskctl fuse` and `record`, driven as a real subprocess: bad values
/// are refused with one line and status 1, and the delay reaches the estimator.
@Suite struct GyroDelayOptionTests {
    /// A device spinning about its Z axis (face up) with a rate that changes every sample, so
    /// extrapolating the gyro ahead changes the attitude (a constant rate would not).
    static func spinningJSON() -> String {
        var objects = [#"{"uptime":100,"timestamp":0,"stepPath":"a","timestampDate":"2026-11-23T10:00:00.000+00:00"}"#]
        for index in 0..<200 {
            let uptime = 100 + Double(index) / 100
            let rate = 2 * sin(2 * Double.pi * Double(index) / 100)
            objects.append(#"{"uptime":\#(uptime),"timestamp":\#(uptime - 100),"stepPath":"a","sensorType":"accelerometer","x":0,"y":0,"z":-1}"#)
            objects.append(#"{"uptime":\#(uptime),"timestamp":\#(uptime - 100),"stepPath":"a","sensorType":"gyro","x":0,"y":0,"z":\#(rate)}"#)
        }
        return "[" + objects.joined(separator: ",\n") + "]"
    }

    /// Values refused, each with the command line's own text of it.
    static let badValues = ["-0.001", "0.051", "1.75", "abc", "", "nan", "inf", "1e300"]

    @Test("fuse refuses a bad --gyro-delay with one line and status 1", arguments: badValues)
    func fuseRefuses(_ value: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let input = try scratch.write("raw.json", Self.spinningJSON())
        let output = scratch.url.appendingPathComponent("fused.json").path
        let result = try await CommandRunner.run(["fuse", input, "--output", output, "--gyro-delay", value])
        #expect(result == .init(status: 1, standardOutput: "", standardError: """
            activetaskctl fuse: --gyro-delay "\(value)" is not a number of seconds from 0.0 to 0.05; give how long the gyroscope lags the accelerometer, e.g. 0.00175 (half a sample at 286 Hz).

            """))
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
    }

    @Test("record refuses a bad --gyro-delay before opening the sensors")
    func recordRefuses() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.url.appendingPathComponent("motion.json").path
        let result = try await CommandRunner.run(
            ["record", "--iio-uri", "sim:still", "--types", "attitude", "--duration", "0.2", "--output", output, "--gyro-delay", "0.1"])
        #expect(result.status == 1)
        #expect(result.standardError == """
            activetaskctl record: --gyro-delay "0.1" is not a number of seconds from 0.0 to 0.05; give how long the gyroscope lags the accelerometer, e.g. 0.00175 (half a sample at 286 Hz).

            """)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("fuse: 0 writes the same bytes as the default; a delay changes the attitude")
    func delayReachesTheEstimator() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let input = try scratch.write("raw.json", Self.spinningJSON())
        func fuse(_ extra: [String], to name: String) async throws -> Data {
            let output = scratch.url.appendingPathComponent(name).path
            let result = try await CommandRunner.run(["fuse", input, "--output", output, "--types", "attitude"] + extra)
            #expect(result == .init(status: 0, standardOutput: "", standardError: ""), "\(extra)")
            return try Data(contentsOf: URL(fileURLWithPath: output))
        }
        let standard = try await fuse([], to: "default.json")
        let zero = try await fuse(["--gyro-delay", "0"], to: "zero.json")
        let delayed = try await fuse(["--gyro-delay", "0.005"], to: "delayed.json")
        #expect(zero == standard)
        #expect(delayed != standard)

        func records(_ data: Data, _ type: String) throws -> [[String: Any]] {
            let all = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
            return all.filter { $0["sensorType"] as? String == type }
        }
        // The same records, with the attitude integrated from the extrapolated rate.
        let before = try records(standard, "attitude"), after = try records(delayed, "attitude")
        #expect(before.count == 200 && after.count == 200)
        let changed = zip(before, after).filter { ($0.0["z"] as? Double) != ($0.1["z"] as? Double) }
        #expect(changed.count > 100, "the attitude follows the extrapolated rate")
    }
}
