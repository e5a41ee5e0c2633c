import Foundation
import Logging
import Testing
import TaskModel
import TestSupport
import ZIPFoundation
@testable import Session

/// The run directory on a scratch data directory: manifest, result files, metadata, archive,
/// listing, discard, retention.
@Suite struct RunStoreTests {
    static let start = Date(timeIntervalSince1970: 1_508_218_089)
    static let end = start.addingTimeInterval(30)
    static let platform = ArchivePlatform(deviceInfo: "Linux 6.1.0 aarch64", deviceTypeIdentifier: "Raspberry Pi 4",
                                          appName: "activetaskd", appVersion: "0.1.0", rsdFrameworkVersion: "activetask 0.1.0")

    static func store(_ scratch: ScratchDirectory) -> RunStore {
        RunStore(dataDirectory: scratch.url, platform: platform, logger: Logger(label: "RunStoreTests"))
    }

    /// A walk task: an answer in a form, a motion file in the `walk` section, and an audio
    /// collection of two files at the task level, as SampleRecorder wraps them.
    static func sampleResult(_ uuid: UUID) -> TaskResult {
        func file(_ identifier: String, _ path: String, _ type: String) -> AnyResult {
            AnyResult(FileResult(identifier: identifier, startDate: start, endDate: end, relativePath: path, contentType: type, startUptime: 12.5))
        }
        return TaskResult(
            identifier: "WalkAndBalance", taskRunUUID: uuid, startDate: start, endDate: end,
            stepHistory: [
                AnyResult(CollectionResult(identifier: "form", startDate: start, endDate: start, children: [
                    AnyResult(AnswerResult(identifier: "age", startDate: start, endDate: start, value: .integer(42))),
                ])),
                AnyResult(SectionResult(identifier: "walk", startDate: start, endDate: end,
                                        stepHistory: [AnyResult(BaseResult(identifier: "walking", startDate: start, endDate: end))],
                                        asyncResults: [file("motion", "walk_motion.json", "application/json")],
                                        path: [PathMarker(identifier: "walking", direction: .forward)])),
            ],
            asyncResults: [AnyResult(CollectionResult(identifier: "roomSound", startDate: start, endDate: end, children: [
                file("roomSound_levels", "roomSound_levels.json", "application/json"),
                file("roomSound", "roomSound.wav", "audio/wav"),
            ]))],
            path: [PathMarker(identifier: "form", direction: .forward), PathMarker(identifier: "walk", direction: .forward)],
            schemaIdentifier: "WalkAndBalance", versionString: "4")
    }

    /// Creates a run with the sample result's files present.
    static func makeRun(_ store: RunStore, uuid: UUID = UUID()) throws -> RunDirectory {
        let run = try store.createRun(taskRunUUID: uuid, taskIdentifier: "WalkAndBalance", taskSource: Data(#"{"identifier":"WalkAndBalance"}"#.utf8),
                                      results: TaskResult(identifier: "WalkAndBalance", taskRunUUID: uuid, startDate: start), startDate: start)
        try Data("[\n{\"uptime\": 1}\n]\n".utf8).write(to: run.url.appendingPathComponent("walk_motion.json"))
        try Data("[]\n".utf8).write(to: run.url.appendingPathComponent("roomSound_levels.json"))
        try Data(repeating: 7, count: 4000).write(to: run.url.appendingPathComponent("roomSound.wav"))
        return run
    }

    static func jsonObject(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func createdRunHasTaskCopyAndRunningManifest() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let uuid = UUID()
        let run = try Self.makeRun(Self.store(scratch), uuid: uuid)
        #expect(run.url.lastPathComponent == uuid.uuidString)
        #expect(try run.readTaskSource() == Data(#"{"identifier":"WalkAndBalance"}"#.utf8))
        let manifest = try run.readManifest()
        #expect(manifest.status == .running && manifest.finishReason == nil && manifest.taskRunUUID == uuid)
        #expect(throws: RunStoreError.self) {
            try Self.store(scratch).createRun(taskRunUUID: uuid, taskIdentifier: "x", taskSource: Data(), results: manifest.results)
        }
    }

    @Test func metadataHasRSDDataArchiveKeys() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let run = try Self.makeRun(Self.store(scratch))
        try run.writeResults(Self.sampleResult(run.taskRunUUID), platform: Self.platform, now: Self.end)
        let metadata = try Self.jsonObject(run.url.appendingPathComponent("metadata.json"))
        #expect(Set(metadata.keys) == ["deviceInfo", "deviceTypeIdentifier", "appName", "appVersion", "rsdFrameworkVersion",
                                       "taskIdentifier", "taskRunUUID", "startDate", "endDate", "schemaIdentifier",
                                       "schemaRevision", "versionString", "files"])
        #expect(metadata["taskRunUUID"] as? String == run.taskRunUUID.uuidString)
        #expect(metadata["schemaRevision"] as? Int == 4)
        #expect(metadata["deviceTypeIdentifier"] as? String == "Raspberry Pi 4")
        let files = try #require(metadata["files"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: files.map { ($0["filename"] as? String ?? "", $0) })
        #expect(files.map { $0["filename"] as? String } == ["walk_motion.json", "roomSound_levels.json", "roomSound.wav", "answers.json", "taskResult.json"])
        #expect(byName["walk_motion.json"]?["stepPath"] as? String == "walk")
        #expect(byName["walk_motion.json"]?["identifier"] as? String == "motion")
        #expect(byName["walk_motion.json"]?["contentType"] as? String == "application/json")
        #expect(byName["walk_motion.json"]?["timestamp"] as? String == Timestamp.string(from: Self.start))
        #expect(byName["roomSound.wav"]?["stepPath"] as? String == "roomSound")
        #expect(byName["taskResult.json"]?["stepPath"] == nil)
        for file in files {
            #expect(Set(file.keys).isSubset(of: ["filename", "timestamp", "contentType", "identifier", "stepPath"]))
        }
        let answers = try Self.jsonObject(run.url.appendingPathComponent("answers.json"))
        #expect(answers as NSDictionary == ["form_age": 42] as NSDictionary)
        let result = try ResultCoding.makeDecoder().decode(TaskResult.self, from: Data(contentsOf: run.url.appendingPathComponent("taskResult.json")))
        #expect(result.path.map(\.identifier) == ["form", "walk"])
    }

    @Test func archiveHoldsResultsMetadataAndRecorderFiles() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let run = try Self.makeRun(Self.store(scratch))
        let (_, archiveURL) = try run.writeResultsAndArchive(Self.sampleResult(run.taskRunUUID), platform: Self.platform, now: Self.end)
        #expect(archiveURL.lastPathComponent == "\(run.taskRunUUID.uuidString).zip")
        let expected = ["walk_motion.json", "roomSound_levels.json", "roomSound.wav", "answers.json", "taskResult.json", "metadata.json"]
        #expect(try RunArchive.entryNames(of: archiveURL) == expected)
        // Every entry holds the file's bytes.
        let archive = try Archive(url: archiveURL, accessMode: .read)
        for name in expected {
            let entry = try #require(archive[name])
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            #expect(data == (try Data(contentsOf: run.url.appendingPathComponent(name))), "\(name)")
        }
        #expect(archive["task.json"] == nil && archive["run.json"] == nil)
        // An independent reader agrees.
        let listing = try await onOwnThread { try Self.runTool("/usr/bin/unzip", ["-l", archiveURL.path]) }
        for name in expected { #expect(listing.contains(name)) }
        let test = try await onOwnThread { try Self.runTool("/usr/bin/unzip", ["-t", archiveURL.path]) }
        #expect(test.contains("No errors detected"))
    }

    @Test func missingRecorderFilesAreLeftOutAndReported() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let run = try Self.makeRun(Self.store(scratch))
        try FileManager.default.removeItem(at: run.url.appendingPathComponent("roomSound.wav"))
        var result = Self.sampleResult(run.taskRunUUID)
        result.asyncResults.append(AnyResult(FileResult(identifier: "evil", startDate: Self.start, endDate: Self.end,
                                                        relativePath: "../../etc/passwd", contentType: nil, startUptime: nil)))
        let written = try run.writeResults(result, platform: Self.platform)
        #expect(written.missingFiles == ["roomSound.wav", "../../etc/passwd"])
        #expect(!written.archiveEntries.contains("roomSound.wav"))
    }

    /// A reader polling `run.json` while it is rewritten always decodes a whole manifest.
    @Test func manifestRewritesAreAtomic() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let run = try Self.makeRun(Self.store(scratch))
        let base = try run.readManifest()
        let state = ReaderState()
        let reader = Task.detached {
            try await onOwnThread {
                while !state.isDone {
                    guard let data = try? Data(contentsOf: run.manifestURL) else { state.record(ok: false); continue }
                    state.record(ok: (try? ResultCoding.makeDecoder().decode(RunManifest.self, from: data)) != nil)
                }
            }
        }
        try await onOwnThread {
            // The reader must be reading before the rewrites start, or a fast writer could finish
            // before it ever looks.
            let deadline = Date().addingTimeInterval(10)
            while state.reads == 0 && Date() < deadline { usleep(1_000) }
            for index in 0..<300 {
                var manifest = base
                // Sizes go up and down so a torn write would show.
                manifest.history = Array(repeating: "WalkAndBalance/walk/step\(index)", count: index % 2 == 0 ? index : 1)
                try run.writeManifest(manifest)
            }
        }
        state.finish()
        try await reader.value
        #expect(state.failures == 0)
        #expect(state.reads > 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: run.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        #expect(try run.readManifest().history.count == 1)
    }

    @Test func finishListDiscardAndCollect() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = Self.store(scratch)
        let run = try Self.makeRun(store)
        var manifest = try run.readManifest()
        manifest.results = Self.sampleResult(run.taskRunUUID)
        manifest.results.endDateTime = nil
        #expect(throws: RunStoreError.self) { try store.markCollected(run.taskRunUUID) }
        let finished = try store.finish(run, manifest: manifest, reason: .completed, now: Self.end)
        #expect(finished.status == .final && finished.archive == run.archiveName)
        #expect(finished.results.endDateTime == Self.end)
        let other = try Self.makeRun(store)
        try store.finish(other, manifest: try other.readManifest(), reason: .saved)
        let summaries = store.runs()
        #expect(summaries.count == 2)
        let summary = try #require(summaries.first { $0.taskRunUUID == run.taskRunUUID })
        #expect(summary.status == .final && summary.finishReason == .completed && summary.archive == run.archiveURL)
        #expect(summaries.first { $0.taskRunUUID == other.taskRunUUID }?.status == .saved)
        try store.markCollected(run.taskRunUUID, now: Self.end)
        #expect(try run.readManifest().collectedDate == Self.end)
        try store.discard(other.taskRunUUID)
        #expect(store.runs().map(\.taskRunUUID) == [run.taskRunUUID])
    }

    @Test("A discard never shows a half-deleted run; what a cut-short discard leaves is removed at the next start")
    func discardIsAllOrNothing() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = Self.store(scratch)
        let run = try Self.makeRun(store)
        let kept = try Self.makeRun(store)
        try store.discard(run.taskRunUUID)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.runsDirectory.path) == [kept.taskRunUUID.uuidString])
        // A crash between the rename and the removal leaves `.discarded-<uuid>` with part of a
        // run: never listed, never recovered, removed when recovery runs.
        let leftover = store.runsDirectory.appendingPathComponent(".discarded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: leftover.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: leftover.appendingPathComponent("answers.json"))
        #expect(store.runs().map(\.taskRunUUID) == [kept.taskRunUUID])
        #expect(store.recoverInterruptedRuns().map(\.taskRunUUID) == [kept.taskRunUUID])
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: kept.url.appendingPathComponent("task.json").path))
    }

    /// `count` completed runs in `store`, newest first, ended a day apart up to `end`.
    static func finishedRuns(_ store: RunStore, count: Int) throws -> [RunDirectory] {
        try (0..<count).map { age in
            let run = try makeRun(store)
            var manifest = try run.readManifest()
            manifest.results = sampleResult(run.taskRunUUID)
            manifest.results.endDateTime = end.addingTimeInterval(Double(-age) * 86_400)
            try store.finish(run, manifest: manifest, reason: .completed)
            return run
        }
    }

    @Test func retentionKeepsArchivesUntilCollected() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = Self.store(scratch)
        let runs = try Self.finishedRuns(store, count: 3)
        let saved = try Self.makeRun(store)
        try store.finish(saved, manifest: try saved.readManifest(), reason: .saved)
        try store.markCollected(runs[2].taskRunUUID)

        let report = try store.prune(RetentionPolicy(maxRuns: 1, maxAgeDays: 0), now: Self.end)
        #expect(report.removed == [runs[2].taskRunUUID])
        #expect(report.trimmed == [runs[1].taskRunUUID])
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: runs[1].url.path)) == ["run.json", runs[1].archiveName])
        #expect(FileManager.default.fileExists(atPath: runs[0].url.appendingPathComponent("taskResult.json").path))
        #expect(FileManager.default.fileExists(atPath: saved.url.appendingPathComponent("task.json").path))
        // Pruning again changes nothing; once collected, the trimmed run goes.
        #expect(try store.prune(RetentionPolicy(maxRuns: 1, maxAgeDays: 0), now: Self.end) == RunStore.RetentionReport())
        try store.markCollected(runs[1].taskRunUUID)
        #expect(try store.prune(RetentionPolicy(maxRuns: 0, maxAgeDays: 1.0 / 24), now: Self.end).removed == [runs[1].taskRunUUID])
    }

    @Test("A limit of 0 is no limit; a run is past the policy beyond maxRuns or older than maxAgeDays",
          arguments: [
              (0, 0.0, 0, 0.0, false), (0, 0.0, 1_000_000, 1e9, false),
              (1, 0.0, 0, 1e9, false), (1, 0.0, 1, 0.0, true), (3, 0.0, 2, 0.0, false), (3, 0.0, 3, 0.0, true),
              (0, 1.0, 0, 86_400.0, false), (0, 1.0, 0, 86_401.0, true), (0, 0.5, 5, 3600.0, false),
              (2, 1.0, 0, 90_000.0, true), (2, 1.0, 2, 10.0, true), (2, 1.0, 1, 10.0, false),
          ])
    func retentionLimits(maxRuns: Int, maxAgeDays: Double, rank: Int, age: Double, past: Bool) {
        #expect(RetentionPolicy(maxRuns: maxRuns, maxAgeDays: maxAgeDays).isPastLimits(rank: rank, age: age) == past)
    }

    @Test("keepUncollectedArchives false removes uncollected runs whole; true keeps a finished run without an archive whole")
    func retentionWithoutKeepingArchives() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = Self.store(scratch)
        let runs = try Self.finishedRuns(store, count: 2)
        // A finished run whose archive is missing (it could not be written): only its files hold it.
        var bare = try runs[1].readManifest()
        bare.archive = nil
        try runs[1].writeManifest(bare, now: Self.end)
        #expect(try store.prune(RetentionPolicy(maxRuns: 1, maxAgeDays: 0), now: Self.end) == RunStore.RetentionReport())
        #expect(FileManager.default.fileExists(atPath: runs[1].url.appendingPathComponent("taskResult.json").path))
        let report = try store.prune(RetentionPolicy(maxRuns: 1, maxAgeDays: 0, keepUncollectedArchives: false), now: Self.end)
        #expect(report.removed == [runs[1].taskRunUUID])
        #expect(!FileManager.default.fileExists(atPath: runs[1].url.path))
        #expect(FileManager.default.fileExists(atPath: runs[0].url.appendingPathComponent("taskResult.json").path))
    }

    static func runTool(_ path: String, _ arguments: [String]) throws -> String {
        try CommandRunner.runBlocking(URL(fileURLWithPath: path), arguments).standardOutput
    }
}

/// Counts shared between the manifest reader thread and the test.
final class ReaderState: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var readCount = 0
    private var failureCount = 0

    var isDone: Bool { lock.withLock { done } }
    var reads: Int { lock.withLock { readCount } }
    var failures: Int { lock.withLock { failureCount } }
    func finish() { lock.withLock { done = true } }
    func record(ok: Bool) {
        lock.withLock {
            readCount += 1
            if !ok { failureCount += 1 }
        }
    }
}

/// Save and resume on disk: a saved run opens again as running, keeps its files, and a new
/// recorder file gets a name of its own.
@Suite struct RunStoreResumeTests {
    @Test func savedRunResumes() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        let run = try RunStoreTests.makeRun(store)
        var manifest = try run.readManifest()
        manifest.currentStepPath = "WalkAndBalance/walk/walking"
        #expect(throws: RunStoreError.self) { try store.resume(run.taskRunUUID) }
        try store.finish(run, manifest: manifest, reason: .saved)
        let resumed = try store.resume(run.taskRunUUID)
        #expect(resumed.manifest.status == .running && resumed.manifest.finishReason == nil)
        #expect(resumed.manifest.currentStepPath == "WalkAndBalance/walk/walking")
        #expect(resumed.taskSource == Data(#"{"identifier":"WalkAndBalance"}"#.utf8))
        #expect(try run.readManifest().status == .running)
        let taken = run.takenFileNames()
        #expect(taken.contains("walk_motion.json") && taken.contains("taskResult.json") && taken.contains("run.json"))
    }
}
