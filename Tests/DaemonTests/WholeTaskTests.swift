import Foundation
import Glibc
import Testing
import TestSupport
import ZIPFoundation

/// Every task of examples/ and of SageResearch's corpus runs to the end through the real daemon
/// with `activetaskctl run --auto` (docs/testing.md, "The install build"). scripts/release-check.sh
/// runs these against the binaries README.md installs (`swift build -c release
/// --static-swift-stdlib`), named by `ACTIVETASK_TEST_BINARIES`: the release build once crashed at
/// every recorder stop while the debug build did not. The debug passes run the same tasks in
/// process (CorpusSessionTests), so here they are skipped, with that reason.
@Suite(
    "activetaskd (install build): whole tasks run to the end",
    .enabled(if: ProcessInfo.processInfo.environment["ACTIVETASK_TEST_BINARIES"] != nil,
             "runs against the install build in scripts/release-check.sh (ACTIVETASK_TEST_BINARIES unset); the debug passes run these tasks in process in CorpusSessionTests"))
struct WholeTaskTests {
    /// The corpus's task files (relative to ../shared/fixtures/sage); section and step files that
    /// only transforms load are not tasks.
    static let corpusTasks = [
        Fixtures.motorControl + "Walk_And_Balance.json",
        Fixtures.motorControl + "Walk_30seconds.json",
        Fixtures.motorControl + "Tremor.json",
        Fixtures.motorControl + "Kinetic_Tremor.json",
        Fixtures.motorControl + "Finger_Tapping.json",
        Fixtures.catalog + "Recorder_Motion.json",
        Fixtures.catalog + "Recorder_Microphone.json",
        Fixtures.catalog + "Recorder_Distance.json",
        Fixtures.catalog + "SimpleSurvey.json",
        "SageResearch/RSDTest/RSDTest/TaskFoo.json",
        "SageResearch/Research/ResearchTests/Resources/FactoryTest_TaskFoo.json",
        "CardiorespiratoryFitness-iOS/CardiorespiratoryFitness/CardiorespiratoryFitness/Swift/iOS/Resources/Base.lproj/Heart_Snapshot.json",
        "CardiorespiratoryFitness-iOS/CRFHeartRate/CRFHeartRate/HeartRate_Measurement.json",
    ]

    /// Runs `file` on a daemon of its own and checks that it completed with its archive, and
    /// that the daemon is still up and ends cleanly.
    static func runToTheEnd(_ file: String, name: String) async throws {
        let fixture = try await DaemonFixture(name)
        let daemon = try await fixture.start()
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(file): \(run.standardError)\n\(daemon.output)")
        let summary = try RunFiles.lastLine(of: run.standardOutput)
        #expect(summary["status"] as? String == "completed", "\(file): \(summary)")
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let archive = URL(fileURLWithPath: try #require(summary["archive"] as? String))
        let entries = try Archive(url: archive, accessMode: .read).map(\.path)
        #expect(entries.suffix(3) == ["answers.json", "taskResult.json", "metadata.json"], "\(file): \(entries)")
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        #expect(result["endDate"] != nil, "\(file): the task result has no end date")
        #expect(daemon.ended == nil, "\(file): activetaskd ended during the run:\n\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(file):\n\(daemon.output)")
    }

    @Test("examples/WalkAndBalance runs to the end")
    func example() async throws {
        try await Self.runToTheEnd(PackagePaths.root.appendingPathComponent("examples/WalkAndBalance/WalkAndBalance.json").path, name: "whole-example")
    }

    @Test(
        "Every task of the SageResearch corpus runs to the end",
        .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: corpus runs skipped."),
        arguments: corpusTasks)
    func corpus(_ relative: String) async throws {
        try await Self.runToTheEnd(Fixtures.path(relative), name: "whole-\((relative as NSString).lastPathComponent)")
    }
}
