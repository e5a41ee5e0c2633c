import Foundation
import TestSupport
import Testing

/// The bring-up commands, run as the built executable (ALSA reads its configuration per
/// process, so the child inherits this process's ALSA_CONFIG_PATH).
@Suite("activetaskctl record-audio, say and devices", .enabled(if: PackagePaths.activetaskctl != nil, "activetaskctl is not built next to the test bundle"))
struct CommandLineTests {
    /// Runs the built activetaskctl after the ALSA set-up, which the child inherits.
    private func run(_ arguments: [String]) async throws -> CommandRunner.Output {
        _ = AudioTestEnvironment.directory
        _ = try #require(PackagePaths.activetaskctl)
        return try await CommandRunner.run(arguments)
    }

    @Test("record-audio writes FILE.wav and FILE_levels.json beside it")
    func recordAudio() async throws {
        let directory = AudioTestEnvironment.scratch("cli-record")
        let input = directory.appendingPathComponent("in.raw")
        let samples = TestSignals.square(amplitude: 4_096, seconds: 3, rate: 16_000)
        try Data(TestSignals.bytes(samples)).write(to: input)
        let output = directory.appendingPathComponent("take.wav")
        let result = try await run(["record-audio", "--capture-device", "test_cap:FILE=\(input.path)", "--duration", "2", "--output", output.path, "--unpaced"])
        #expect(result.status == 0, "\(result.standardError)")
        let wav = try Data(contentsOf: output)
        #expect(wav.count == 44 + 2 * 16_000 * 2)
        #expect([UInt8](wav[44...]) == Array(TestSignals.bytes(Array(samples.prefix(32_000)))))
        let levels = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("take_levels.json"))) as? [[String: Any]]
        #expect(levels?.count == 2)
        #expect(levels?.allSatisfy { abs(($0["average"] as? Double ?? 0) - -18.0618) < 0.001 } == true)
        let printed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        #expect(Set(printed?.compactMap { $0["relativePath"] as? String } ?? []) == ["take.wav", "take_levels.json"])
    }

    @Test("record-audio and say fail with ALSA's reason for a missing device", arguments: [
        ["record-audio", "--capture-device", "no_such_pcm", "--duration", "1", "--output", "/tmp/never.wav"],
        ["say", "hello", "--playback-device", "no_such_pcm"],
    ])
    func missingDevice(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no_such_pcm"))
        #expect(result.standardError.contains("No such file or directory"))
    }

    @Test("say speaks into the playback device")
    func say() async throws {
        let directory = AudioTestEnvironment.scratch("cli-say")
        let output = directory.appendingPathComponent("said.raw")
        let result = try await run(["say", "Turn around.", "--playback-device", "test_play:FILE=\(output.path)", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let played = try Data(contentsOf: output)
        #expect(played.count > 22_050)  // more than half a second of speech
        let times = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect((times?["endUptime"] as? Double ?? 0) >= (times?["onsetUptime"] as? Double ?? .infinity))
        // A file PCM over null takes frames as fast as they come and reports no delay.
        #expect(times?["heardBy"] as? String == "handedToDevice")
    }

    @Test("devices --local --json lists the null PCM with its formats")
    func devices() async throws {
        let result = try await run(["devices", "--local", "--json"])
        #expect(result.status == 0)
        let listing = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [[String: Any]]]
        let null = listing?["audio"]?.first { $0["name"] as? String == "null" }
        let capabilities = null?["capabilities"] as? [[String: Any]]
        #expect(capabilities?.first?["formats"] as? [String] == ["S16_LE", "S32_LE", "FLOAT_LE"])
    }
}
