// Swift Testing is not part of a static toolchain build (`swift build -c release
// --static-swift-stdlib`, the install build of README.md), which builds every target but the
// test targets: this suite then compiles to nothing (docs/testing.md).
#if canImport(Testing)
public import AsyncActions
import Foundation
import Logging
public import TaskModel
public import Testing

/// The conformance suite every controller passes (docs/async-actions.md): status sequences,
/// failures during permission, start, recording and stop, stop after a failure, cancel in
/// every status, deadlines with a hanging device, and `shouldDeletePrevious` both ways.
public enum AsyncActionConformance {
    /// One check of the suite.
    public enum Check: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case statusSequence
        case failureDuringPermission
        case failureDuringStart
        case failureWhileRecording
        case failureDuringStop
        case cancelInEveryStatus
        case cancelWhileOpening
        case openDeadline
        case stopDeadline
        case cancelDeadline
        case deletePrevious
        case keepPrevious

        public var testDescription: String { rawValue }

        /// The device behaviours the check needs its fixture to reproduce.
        public var scenarios: Set<ConformanceFixture.Scenario> {
            switch self {
            case .statusSequence, .failureDuringStart, .deletePrevious, .keepPrevious: [.healthy]
            // Cancel in every status includes `failed`, reached through a refused permission.
            case .cancelInEveryStatus: [.healthy, .failsPermission]
            case .failureDuringPermission: [.failsPermission]
            case .failureWhileRecording: [.failsWhileRecording]
            case .failureDuringStop: [.failsOnStop]
            case .cancelWhileOpening, .openDeadline: [.hangsOnOpen]
            case .stopDeadline, .cancelDeadline: [.hangsOnStop]
            }
        }
    }

    /// The path SageResearch takes from idle to finished.
    public static let fullPath: [AsyncActionStatus] = [
        .requestingPermission, .permissionGranted, .starting, .running, .waitingToStop, .processingResults, .stopping, .finished,
    ]

    /// Runs `check` against `fixture`. A check the fixture cannot reproduce is a failure here:
    /// list it among the fixture's skipped checks instead (`ConformanceFixture.unreproducibleChecks`,
    /// docs/testing.md), so that the skip and its reason show in the test report.
    public static func run(_ check: Check, on fixture: ConformanceFixture) async throws {
        let missing = check.scenarios.subtracting(fixture.scenarios)
        guard missing.isEmpty else {
            Issue.record(
                "\(fixture.name) cannot reproduce \(missing.map(\.rawValue).sorted().joined(separator: ", ")), which \(check.rawValue) needs; pass it only the fixture's `checks` and give the others a disabled test with the reason.")
            return
        }
        let context = Context(fixture: fixture)
        switch check {
        case .statusSequence: try await context.statusSequence()
        case .failureDuringPermission: try await context.failureDuringPermission()
        case .failureDuringStart: try await context.failureDuringStart()
        case .failureWhileRecording: try await context.failureWhileRecording()
        case .failureDuringStop: try await context.failureDuringStop()
        case .cancelInEveryStatus: try await context.cancelInEveryStatus()
        case .cancelWhileOpening: try await context.cancelWhileOpening()
        case .openDeadline: try await context.openDeadline()
        case .stopDeadline: try await context.stopDeadline()
        case .cancelDeadline: try await context.cancelDeadline()
        case .deletePrevious: try await context.previous(delete: true)
        case .keepPrevious: try await context.previous(delete: false)
        }
    }
}

/// The file results of `results`, with those inside a collection listed one by one.
public func fileResults(_ results: [any ResultData]) -> [FileResult] {
    results.flatMap { result -> [FileResult] in
        if let collection = result as? CollectionResult { return collection.children.compactMap { $0.result as? FileResult } }
        return (result as? FileResult).map { [$0] } ?? []
    }
}

private struct Context {
    let fixture: ConformanceFixture
    let identifier = "recorder"

    func output(_ directory: URL? = nil) -> RecorderOutput {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-\(fixture.name)-\(UUID().uuidString.prefix(8))")
        return RecorderOutput(directory: directory, baseName: identifier, taskRunUUID: UUID(), ownerPath: "Task", logger: Logger(label: "conformance"))
    }

    func make(_ scenario: ConformanceFixture.Scenario, _ output: RecorderOutput, deletePrevious: Bool = true) async throws -> ConformanceFixture.Made {
        try await fixture.make(scenario, output, deletePrevious)
    }

    func files(in directory: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    /// The one failure: exactly one error result `<identifier>_error` with `code`, published
    /// before the status `failed`, and `stop()` (asked twice) returns exactly it.
    func expectOneFailure(_ controller: any AsyncActionController, _ log: EventLog, code: AsyncActionError.Code? = nil) async throws {
        #expect(await log.waitUntilFinished(), "\(fixture.name): the events finish after failed")
        #expect(await controller.status == .failed)
        let failures = await log.failures
        #expect(failures.count == 1, "\(fixture.name): \(failures.count) error results published")
        let failure = try #require(failures.first)
        #expect(failure.identifier == "\(identifier)_error")
        if let code { #expect(failure.errorCode == code.rawValue, "\(fixture.name): \(failure.errorDescription)") }
        #expect(!failure.errorDescription.isEmpty)
        let events = await log.events
        #expect(events.last?.status == .failed)
        if case .failed = events.dropLast().last?.kind {} else { Issue.record("\(fixture.name): the error result must come just before the status failed") }
        #expect(events.map(\.sequence) == Array(1...UInt64(events.count)))
        for _ in 0..<2 {
            let results = try await controller.stop()
            #expect(results.count == 1)
            #expect((results.first as? ErrorResult) == failure, "\(fixture.name): stop after a failure returns its error result")
        }
    }

    /// A controller of `scenario` that has been granted permission and records for
    /// `recordingTime`, with its event log.
    func recording(_ scenario: ConformanceFixture.Scenario) async throws -> (ConformanceFixture.Made, EventLog) {
        let made = try await make(scenario, output())
        let log = EventLog(made.controller.events)
        try await made.controller.requestPermission()
        try await made.controller.start(stepPath: "Task/a")
        try await Task.sleep(for: fixture.recordingTime)
        return (made, log)
    }

    // MARK: Checks

    func statusSequence() async throws {
        let output = output()
        let made = try await make(.healthy, output)
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        try await controller.requestPermission()
        #expect(await controller.status == .permissionGranted)
        try await controller.start(stepPath: "Task/a")
        #expect(await controller.status == .running)
        try await Task.sleep(for: fixture.recordingTime / 2)
        await controller.moveTo(stepPath: "Task/b")
        try await Task.sleep(for: fixture.recordingTime / 2)
        let results = try await controller.stop()
        #expect(await controller.status == .finished)
        #expect(await log.waitUntilFinished())
        #expect(await log.statuses == AsyncActionConformance.fullPath)
        #expect(await log.failures.isEmpty)
        let events = await log.events
        #expect(events.allSatisfy { $0.identifier == identifier })
        #expect(events.map(\.sequence) == Array(1...UInt64(events.count)))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.uptime <= $1.uptime })
        #expect(!results.contains { $0 is ErrorResult })
        let files = fileResults(results)
        #expect(Set(files.map(\.relativePath)) == Set(fixture.fileNames(identifier)))
        for file in files {
            #expect(FileManager.default.fileExists(atPath: output.directory.appendingPathComponent(file.relativePath).path))
            #expect(file.startUptime != nil && file.startDate <= file.endDate)
        }
        // Commands after the end are refused or harmless, never a crash or a second result.
        await #expect(throws: AsyncActionError.self) { try await controller.start(stepPath: "Task/c") }
        await controller.cancel()
        #expect(await controller.status == .finished)
    }

    func failureDuringPermission() async throws {
        let made = try await make(.failsPermission, output())
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        await #expect(throws: AsyncActionError.self) { try await controller.requestPermission() }
        await #expect(throws: AsyncActionError.self) { try await controller.start(stepPath: "Task/a") }
        try await expectOneFailure(controller, log)
        #expect(await log.statuses == [.requestingPermission, .failed])
        await controller.cancel()
        #expect(await controller.status == .failed)
    }

    func failureDuringStart() async throws {
        // The run directory is a regular file: nothing can be created in it.
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let blocked = parent.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocked)
        let made = try await make(.healthy, output(blocked))
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        try await controller.requestPermission()
        await #expect(throws: AsyncActionError.self) { try await controller.start(stepPath: "Task/a") }
        try await expectOneFailure(controller, log, code: .outputFailed)
        #expect(await log.statuses == [.requestingPermission, .permissionGranted, .starting, .failed])
    }

    func failureWhileRecording() async throws {
        let output = output()
        let made = try await make(.failsWhileRecording, output)
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        try await controller.requestPermission()
        try await controller.start(stepPath: "Task/a")
        await made.afterStart()
        #expect(await log.waitFor(.failed), "\(fixture.name): the device failure reaches the controller")
        try await expectOneFailure(controller, log, code: .deviceFailed)
        #expect(await log.statuses == [.requestingPermission, .permissionGranted, .starting, .running, .failed])
    }

    func failureDuringStop() async throws {
        let (made, log) = try await recording(.failsOnStop)
        defer { Task { await made.release() } }
        let controller = made.controller
        // The failure arrives while stop() runs: the stop returns the error result, never the
        // cut file as a clean file result.
        await made.beforeStop()
        async let fault: Void = made.whileStopping()
        let results = try await controller.stop()
        await fault
        #expect(results.count == 1 && results.first is ErrorResult, "\(fixture.name): \(results)")
        try await expectOneFailure(controller, log, code: .deviceFailed)
        #expect(await log.statuses == [.requestingPermission, .permissionGranted, .starting, .running, .waitingToStop, .failed])
    }

    func cancelInEveryStatus() async throws {
        // idle, permissionGranted, running: cancelled, nothing left on disk, stop returns nothing.
        for reach in [AsyncActionStatus.idle, .permissionGranted, .running] {
            let output = output()
            let made = try await make(.healthy, output)
            defer { Task { await made.release() } }
            let controller = made.controller
            let log = EventLog(controller.events)
            if reach >= .permissionGranted { try await controller.requestPermission() }
            if reach >= .running {
                try await controller.start(stepPath: "Task/a")
                try await Task.sleep(for: fixture.recordingTime / 2)
            }
            #expect(await controller.status == reach)
            await controller.cancel()
            await controller.cancel()
            #expect(await controller.status == .cancelled, "\(fixture.name): cancel in \(reach)")
            #expect(files(in: output.directory).isDisjoint(with: fixture.fileNames(identifier)), "\(fixture.name): cancel in \(reach) deletes what was written")
            #expect(try await controller.stop().isEmpty)
            #expect(await log.waitUntilFinished())
            #expect(await log.statuses.last == .cancelled)
            #expect(await log.failures.isEmpty)
            await #expect(throws: AsyncActionError.self) { try await controller.requestPermission() }
        }
        // finished: cancel keeps the results' files.
        let output = output()
        let made = try await make(.healthy, output)
        defer { Task { await made.release() } }
        try await made.controller.requestPermission()
        try await made.controller.start(stepPath: "Task/a")
        try await Task.sleep(for: fixture.recordingTime / 2)
        let results = try await made.controller.stop()
        await made.controller.cancel()
        #expect(await made.controller.status == .finished)
        for file in fileResults(results) {
            #expect(FileManager.default.fileExists(atPath: output.directory.appendingPathComponent(file.relativePath).path))
        }
        // failed: stays failed with its one error result.
        let failing = try await make(.failsPermission, self.output())
        defer { Task { await failing.release() } }
        _ = try? await failing.controller.requestPermission()
        await failing.controller.cancel()
        #expect(await failing.controller.status == .failed)
        #expect(try await failing.controller.stop().first is ErrorResult)
    }

    func cancelWhileOpening() async throws {
        let made = try await make(.hangsOnOpen, output())
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        let permission = Task { try await controller.requestPermission() }
        #expect(await log.waitFor(.requestingPermission))
        let cancelAsked = ContinuousClock.now
        await controller.cancel()
        // Cancel does not wait for the hanging device.
        #expect(ContinuousClock.now - cancelAsked < fixture.deadline)
        #expect(await controller.status == .cancelled)
        await #expect(throws: AsyncActionError.self) { try await permission.value }
        #expect(await controller.status == .cancelled)
        #expect(await log.failures.isEmpty)
    }

    func openDeadline() async throws {
        let made = try await make(.hangsOnOpen, output())
        defer { Task { await made.release() } }
        let controller = made.controller
        let log = EventLog(controller.events)
        let asked = ContinuousClock.now
        await #expect(throws: AsyncActionError.self) { try await controller.requestPermission() }
        let waited = ContinuousClock.now - asked
        // At the deadline; the margin only absorbs a loaded machine's scheduling.
        #expect(waited >= fixture.deadline && waited < fixture.deadline + .seconds(5), "\(fixture.name): permission gave up after \(waited)")
        try await expectOneFailure(controller, log, code: .timedOut)
    }

    func stopDeadline() async throws {
        let (made, log) = try await recording(.hangsOnStop)
        defer { Task { await made.release() } }
        let controller = made.controller
        let asked = ContinuousClock.now
        let results = try await controller.stop()
        let waited = ContinuousClock.now - asked
        #expect(waited < fixture.deadline * 2 + .seconds(5), "\(fixture.name): stop gave up after \(waited)")
        #expect(results.count == 1 && results.first is ErrorResult)
        try await expectOneFailure(controller, log, code: .timedOut)
    }

    func cancelDeadline() async throws {
        let (made, log) = try await recording(.hangsOnStop)
        defer { Task { await made.release() } }
        let asked = ContinuousClock.now
        await made.controller.cancel()
        let waited = ContinuousClock.now - asked
        #expect(waited < fixture.deadline * 2 + .seconds(5), "\(fixture.name): cancel gave up after \(waited)")
        #expect(await made.controller.status == .cancelled)
        #expect(await log.failures.isEmpty)
        #expect(try await made.controller.stop().isEmpty)
    }

    func previous(delete: Bool) async throws {
        let output = output()
        var names: [[String]] = []
        for _ in 0..<2 {
            let made = try await make(.healthy, output, deletePrevious: delete)
            defer { Task { await made.release() } }
            try await made.controller.requestPermission()
            try await made.controller.start(stepPath: "Task/a")
            try await Task.sleep(for: fixture.recordingTime / 3)
            names.append(fileResults(try await made.controller.stop()).map(\.relativePath).sorted())
        }
        let first = fixture.fileNames(identifier).sorted()
        #expect(names[0] == first)
        if delete {
            // The earlier files are deleted and their names reused.
            #expect(names[1] == first)
            #expect(files(in: output.directory) == Set(first))
        } else {
            // The earlier files stay; each new one takes FileUtility's 4-character suffix on its
            // own (docs/async-actions.md; this used to expect a shared `-2` base name).
            let second = first.map { name -> String in
                let url = URL(fileURLWithPath: name)
                return "\(url.deletingPathExtension().lastPathComponent)-0001.\(url.pathExtension)"
            }.sorted()
            #expect(names[1] == second)
            #expect(files(in: output.directory) == Set(first + second))
        }
    }
}
#endif
