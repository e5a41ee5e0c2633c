import Foundation
import TestSupport
import Testing

/// The fuzz targets built without FUZZING replay their committed seed corpora (which hold the
/// reproducers of every crash the fuzzers found) once each, as subprocesses; scripts/fuzz.sh
/// does the libFuzzer run (docs/fuzzing.md).
@Suite struct FuzzCorpusTests {
    /// Every target with a seed corpus in Fuzz/Corpus.
    static let targets: [String] = {
        let corpus = PackagePaths.root.appendingPathComponent("Fuzz/Corpus").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).sorted()
    }()

    @Test func everyFuzzTargetHasASeedCorpus() {
        #expect(Self.targets == ["fuzz-answer", "fuzz-rpc", "fuzz-scan", "fuzz-task"])
    }

    @Test(arguments: targets)
    func seedCorpusReplaysWithoutACrash(target: String) async throws {
        let executable = try #require(PackagePaths.builtExecutable(named: target), "\(target) is not built; run swift build.")
        let corpus = "Fuzz/Corpus/\(target)"
        let seeds = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.root.appendingPathComponent(corpus).path)
        let result = try await CommandRunner.run(executable, [corpus], environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(result == .init(
            status: 0, standardOutput: "\(target): replayed \(seeds.count) inputs without a crash\n", standardError: ""))
    }

    @Test func aMissingInputIsAnError() async throws {
        let executable = try #require(PackagePaths.builtExecutable(named: "fuzz-task"))
        let result = try await CommandRunner.run(executable, ["Fuzz/no-such-input"])
        #expect(result == .init(
            status: 66, standardOutput: "",
            standardError: "fuzz-task: Fuzz/no-such-input does not exist; give fuzz inputs or corpus directories.\n"))
    }

    @Test func noArgumentsPrintsTheUsage() async throws {
        let executable = try #require(PackagePaths.builtExecutable(named: "fuzz-scan"))
        let result = try await CommandRunner.run(executable, [])
        #expect(result.status == 64)
        #expect(result.standardOutput.hasPrefix("usage: fuzz-scan FILE-OR-DIRECTORY..."))
    }
}
