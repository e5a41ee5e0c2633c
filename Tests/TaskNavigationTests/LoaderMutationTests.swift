import Foundation
import TaskModel
import TaskNavigation
import TestSupport
import Testing

/// No input can trap the loader, the navigator or `plan` (issue "Bad input"): thousands of
/// mutated task files, from SageResearch's corpus (when present) and the project's examples,
/// run in this process through `TaskLoader`, `TaskNavigator` (start, then forward, back and
/// timer ends until the end) and `TaskPlan`. A trap kills the test process, so reaching the
/// end is the assertion; the seed is fixed, so a failure reproduces, and the mutant being run
/// is written to `last-mutant.json` in the scratch directory first.
@Suite struct LoaderMutationTests {
    struct Seed {
        var url: URL
        var bytes: [UInt8]
    }

    static let mutantCount = 3000
    /// A bound on the run, not a speed target: a slow machine runs fewer mutants.
    static let timeBudget: Double = 120
    static let interestingBytes: [UInt8] = [0xFF, 0xFE, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0x00, 0x0A, 0x20]
        + Array(#""{}[],:\/*-+.0123456789eEtfn"#.utf8)
    static let tokens: [String] = [
        #""""#, "{}", "[]", ",", ":", "null", "true", "1e400", "-0", "0.5", "-1", "9223372036854775808", #""\u0000""#, #""\ud800""#,
        "//", "/*", "'", #""type": "section", "steps": []"#, #""nextStepIdentifier": "exit","#, #""duration": -5,"#,
        #""resourceTransformer": {"resourceName": "nowhere"},"#, #""asyncActions": [{"identifier": "m", "type": "motion"}],"#,
        #""beforeCohortRules": [{"requiredCohorts": ["a"], "skipToIdentifier": "nextSection"}],"#,
    ]

    static func seeds() throws -> [Seed] {
        var directories = [PackagePaths.root.appendingPathComponent("examples")]
        if Fixtures.available { directories.append(Fixtures.sage) }
        var seeds: [Seed] = []
        for directory in directories {
            // Hidden directories skipped: examples/custom-task/.build holds its dependencies' JSON.
            guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in files where url.pathExtension == "json" {
                seeds.append(Seed(url: url, bytes: Array(try Data(contentsOf: url))))
            }
        }
        return seeds.sorted { $0.url.path < $1.url.path }
    }

    /// One to four byte-level or JSON-aware edits.
    static func mutate(_ input: [UInt8], identifiers: [String], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        let count = Bool.random(using: &random) ? 1 : Int.random(in: 2...4, using: &random)
        for _ in 0..<count {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] = interestingBytes.randomElement(using: &random)!
            case 1:
                bytes.insert(interestingBytes.randomElement(using: &random)!, at: position)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...16, using: &random)))
            case 3:
                // Cut the file, sometimes with the reproducer's tail (an invalid byte and spaces).
                bytes.removeSubrange(position...)
                if Bool.random(using: &random) { bytes += [0xFF] + Array(repeating: 0x20, count: 7) }
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
                let slice = bytes[position..<end]
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &random))
            case 5:
                bytes.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: position)
            case 6...8 where !identifiers.isEmpty:
                // Navigation to another step (loops, jumps out of sections) after an object opens.
                if let brace = bytes[position...].firstIndex(of: UInt8(ascii: "{")) {
                    let target = identifiers.randomElement(using: &random)!
                    let key = ["nextStepIdentifier", "skipToIdentifier", "startStepIdentifier", "stopStepIdentifier"].randomElement(using: &random)!
                    bytes.insert(contentsOf: Array(#""\#(key)": "\#(target)","#.utf8), at: brace + 1)
                }
            default:
                // Swap two chunks.
                if bytes.count > 8 {
                    let other = Int.random(in: 0..<bytes.count, using: &random)
                    let (a, b) = (min(position, other), max(position, other))
                    let length = min(Int.random(in: 1...8, using: &random), b - a, bytes.count - b)
                    if length > 0 {
                        let first = Array(bytes[a..<a + length])
                        bytes.replaceSubrange(a..<a + length, with: bytes[b..<b + length])
                        bytes.replaceSubrange(b..<b + length, with: first)
                    }
                }
            }
        }
        return bytes
    }

    /// Identifiers written in a file, as navigation targets for mutations.
    static func identifiers(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        let pattern = #/"identifier"\s*:\s*"([^"]*)"/#
        return text.matches(of: pattern).map { String($0.output.1) } + ["exit", "nextSection"]
    }

    /// Everything a task goes through before and while it runs.
    static func exercise(_ bytes: [UInt8], seed: Seed, using random: inout SeededGenerator) -> (loaded: Bool, moves: Int) {
        let loader = TaskLoader()
        guard let loaded = try? loader.load(data: Data(bytes), displayName: seed.url.lastPathComponent,
                                            baseDirectory: seed.url.deletingLastPathComponent()),
              case .task(let task) = loaded.document
        else { return (false, 0) }
        _ = try? TaskPlan(task: task)
        _ = try? TaskPlan(task: task, showsFullInstructions: false, cohorts: ["a"])
        var navigator = TaskNavigator(task: task)
        var moves = 0
        do {
            _ = try navigator.start()
            while !navigator.isFinished, moves < 500 {
                moves += 1
                _ = navigator.progress
                switch Int.random(in: 0..<10, using: &random) {
                case 0: _ = try? navigator.goBack()
                case 1: _ = navigator.stepTimerFinished()
                case 2: _ = try navigator.skip()
                default: _ = try navigator.goForward()
                }
            }
            if !navigator.isFinished { _ = navigator.finish() }
        } catch {
            // A navigation error is a clear error, which is all this test asks for.
        }
        return (true, moves)
    }

    @Test func mutatedTasksNeverTrap() async throws {
        let seeds = try Self.seeds()
        try #require(!seeds.isEmpty, "No seed files: examples/ is missing.")
        if !Fixtures.available {
            print("LoaderMutationTests: ../shared/fixtures is absent; mutating the project's examples only.")
        }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let lastMutant = scratch.url.appendingPathComponent("last-mutant.json")
        // Up to two minutes of CPU-bound work: on a thread of its own, not on one of the
        // concurrency pool's threads (one per core), which the other suites' tests need meanwhile.
        let (ran, loaded, moves) = try await onOwnThread { try Self.runMutants(seeds: seeds, lastMutant: lastMutant) }
        // An instrumented build (scripts/sanitize.sh) runs proportionally fewer in the same budget.
        #expect(Double(ran) >= 1000 / TestTiming.scale)
        // Enough mutants survive loading for the navigator and plan to be exercised too.
        #expect(loaded >= ran / 20)
        #expect(moves > 0)
    }

    /// Mutates the seeds in turn until `mutantCount` or `timeBudget`, keeping the mutant being
    /// tried in `lastMutant` (so a trap leaves it behind).
    static func runMutants(seeds: [Seed], lastMutant: URL) throws -> (ran: Int, loaded: Int, moves: Int) {
        let identifiers = seeds.map { Self.identifiers(in: $0.bytes) }
        var random = SeededGenerator(seed: 0x5EED_0009)
        let started = Date()
        var ran = 0
        var loaded = 0
        var moves = 0
        while ran < Self.mutantCount, Date().timeIntervalSince(started) < Self.timeBudget {
            let index = ran % seeds.count
            let mutant = Self.mutate(seeds[index].bytes, identifiers: identifiers[index], using: &random)
            try Data(mutant).write(to: lastMutant)
            let outcome = Self.exercise(mutant, seed: seeds[index], using: &random)
            ran += 1
            if outcome.loaded { loaded += 1 }
            moves += outcome.moves
        }
        print("LoaderMutationTests: \(ran) mutants of \(seeds.count) files in \(Int(Date().timeIntervalSince(started))) s; \(loaded) loaded as tasks, \(moves) navigator moves.")
        return (ran, loaded, moves)
    }

    /// The unmutated seeds all load (the corpus holds a few non-task files: those may fail, but
    /// cleanly), so the mutants start from real tasks.
    @Test func seedsLoad() throws {
        var random = SeededGenerator(seed: 1)
        let seeds = try Self.seeds()
        let loaded = seeds.filter { Self.exercise($0.bytes, seed: $0, using: &random).loaded }
        #expect(loaded.count >= seeds.count / 2)
    }
}
